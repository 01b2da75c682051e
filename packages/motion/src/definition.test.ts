import { describe, expect, test } from "bun:test";
import { cpuKernels, isVqError, setCpuKernels, type PictureFormat } from "@vq/core";
import { motionDefinition, motionFeatureNames, motionOptions } from "./definition.ts";
import { motionFeature } from "./index.ts";
import { MotionCpu } from "./motion-cpu.ts";
import { MotionWasm } from "./motion-wasm.ts";

const format: PictureFormat = { width: 64, height: 32, bitDepth: 8, pixelFormat: "420" };

function errorOf(f: () => unknown): Error {
  try {
    f();
  } catch (e) {
    expect(isVqError(e)).toBe(true);
    return e as Error;
  }
  throw new Error("expected an error");
}

describe("motion options", () => {
  test("defaults are libvmaf's", () => {
    expect(motionOptions.resolve()).toEqual({
      motion_force_zero: false,
      motion_blend_factor: 1,
      motion_blend_offset: 40,
      motion_fps_weight: 1,
      motion_max_val: 10000,
      motion_five_frame_window: false,
      motion_moving_average: false,
      debug: false,
    });
  });

  test("unknown options are rejected, naming the option", () => {
    expect(errorOf(() => motionOptions.parseStrings({ motion_maxval: "18" })).message).toContain("motion_maxval");
    expect(errorOf(() => motionOptions.resolve({ nope: 1 } as never)).message).toContain("nope");
    // libvmaf's aliases name features; they are not option names
    expect(errorOf(() => motionOptions.parseStrings({ mmxv: "18" })).message).toContain("mmxv");
  });

  test("values outside libvmaf's ranges are rejected", () => {
    for (const [key, value] of [
      ["motion_blend_factor", "1.5"],
      ["motion_blend_factor", "-0.1"],
      ["motion_blend_offset", "1000.5"],
      ["motion_fps_weight", "5.01"],
      ["motion_max_val", "10000.1"],
      ["motion_max_val", "-1"],
    ] as const) {
      expect(errorOf(() => motionOptions.parseStrings({ [key]: value })).message).toContain(key);
    }
  });

  test("malformed values are rejected", () => {
    expect(errorOf(() => motionOptions.parseStrings({ motion_max_val: "lots" })).message).toContain("motion_max_val");
    expect(errorOf(() => motionOptions.parseStrings({ debug: "yes" })).message).toContain("debug");
    expect(errorOf(() => motionOptions.parseStrings({ motion_five_frame_window: "1" })).message).toContain("motion_five_frame_window");
  });

  test("range bounds themselves are accepted", () => {
    const o = motionOptions.parseStrings({ motion_blend_factor: "0", motion_blend_offset: "1000", motion_fps_weight: "5", motion_max_val: "0" });
    expect([o.motion_blend_factor, o.motion_blend_offset, o.motion_fps_weight, o.motion_max_val]).toEqual([0, 1000, 5, 0]);
  });
});

describe("motion feature names", () => {
  test("default options: libvmaf's aliases, sad score unaliased", () => {
    expect(motionDefinition.providedFeatures(motionOptions.resolve())).toEqual(["VMAF_integer_feature_motion_sad_score", "integer_motion2", "integer_motion3"]);
  });

  test("debug adds integer_motion and is not a feature parameter", () => {
    expect(motionDefinition.providedFeatures(motionOptions.resolve({ debug: true }))).toEqual([
      "VMAF_integer_feature_motion_sad_score",
      "integer_motion",
      "integer_motion2",
      "integer_motion3",
    ]);
  });

  test("non-default feature parameters become suffixes, sorted by option name, with their aliases", () => {
    const names = motionFeatureNames(motionOptions.parseStrings({ motion_moving_average: "true", motion_max_val: "18.0", motion_five_frame_window: "true" }));
    expect(names.motion3).toBe("integer_motion3_mffw_mmxv_18_mma");
    expect(names.sad).toBe("VMAF_integer_feature_motion_sad_score_mffw_mmxv_18_mma");
    const all = motionFeatureNames(
      motionOptions.parseStrings({
        motion_force_zero: "true",
        motion_blend_factor: "0.5",
        motion_blend_offset: "12.25",
        motion_fps_weight: "2",
        debug: "true",
      }),
    );
    // strcmp order of option names: motion_force_zero sorts before motion_fps_weight
    expect(all.motion).toBe("integer_motion_mbf_0.5_mbo_12.25_force_0_mfw_2");
  });

  test("an option set to its default adds no suffix", () => {
    expect(motionFeatureNames(motionOptions.parseStrings({ motion_max_val: "10000", motion_blend_factor: "1" })).motion2).toBe("integer_motion2");
  });
});

describe("motion formats", () => {
  test("pictures smaller than the blur are rejected", () => {
    expect(errorOf(() => motionDefinition.checkFormat!(motionOptions.resolve(), { ...format, width: 2 })).message).toContain("2x32");
    expect(errorOf(() => new MotionCpu(motionOptions.resolve()).init({ ...format, height: 2 })).message).toContain("64x2");
  });

  test("8 to 16 bits are accepted", () => {
    for (const bitDepth of [8, 9, 10, 12, 16]) expect(() => motionDefinition.checkFormat!(motionOptions.resolve(), { ...format, bitDepth })).not.toThrow();
  });

  test("motionFeature builds the CPU extractor: the WebAssembly SIMD kernels, or the TypeScript reference when forced", () => {
    const e = motionFeature.cpu(motionOptions.resolve({ debug: true }));
    expect(e).toBeInstanceOf(cpuKernels() === "ts" ? MotionCpu : MotionWasm);
    expect(e.definition).toBe(motionDefinition);
    setCpuKernels("ts");
    try {
      expect(motionFeature.cpu(motionOptions.resolve())).toBeInstanceOf(MotionCpu);
    } finally {
      setCpuKernels(undefined);
    }
    expect(motionDefinition.temporal).toBe(true);
  });
});
