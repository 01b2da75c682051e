import { describe, expect, test } from "bun:test";
import { FeatureCollector, type Picture, type PictureFormat } from "@vq/core";
import { firstFrames } from "./golden-frames.ts";
import { goldenOutput, goldenPairs, goldenRun } from "@vq/core/golden";
import { floatVifDefinition, floatVifOptions, type FloatVifOptions } from "./float-vif-definition.ts";
import { FloatVifCpu } from "./cpu/float-vif-cpu.ts";
import { vifFilter as floatVifFilter, vifFilterSize as floatVifFilterSize } from "@vq/core";
import { log2fApprox } from "./numerics/float-log2.ts";

const format = (width: number, height: number, bitDepth = 8): PictureFormat => ({ width, height, bitDepth, pixelFormat: "420" });
const defaults = floatVifOptions.resolve();

function scoreFrame(options: Partial<FloatVifOptions>, frame: { ref: Picture; dist: Picture }): [string, number][] {
  const vif = new FloatVifCpu(floatVifOptions.resolve(options));
  const collector = new FeatureCollector();
  vif.init(frame.ref.format);
  vif.extract(frame, 0, collector);
  return collector.frame(0);
}

describe("float_vif options", () => {
  test("defaults are libvmaf's", () => {
    expect(defaults).toEqual({
      debug: false,
      vif_enhn_gain_limit: 100,
      vif_kernelscale: 1,
      vif_prescale: 1,
      vif_scale1_min_val: 0,
      vif_scale2_min_val: 0,
      vif_scale3_min_val: 0,
      vif_prescale_method: "nearest",
      vif_sigma_nsq: 2,
      vif_skip_scale0: false,
    });
  });

  test("unknown options, out-of-range values and unknown methods are errors", () => {
    expect(() => floatVifOptions.parseStrings({ enable_lcs: "true" })).toThrow(/enable_lcs/);
    expect(() => floatVifOptions.parseStrings({ vif_kernelscale: "5" })).toThrow(/vif_kernelscale/);
    expect(() => floatVifOptions.parseStrings({ vif_prescale: "0.05" })).toThrow(/vif_prescale/);
    expect(() => floatVifOptions.parseStrings({ vif_sigma_nsq: "-1" })).toThrow(/vif_sigma_nsq/);
    expect(() => floatVifOptions.parseStrings({ vif_scale2_min_val: "1.5" })).toThrow(/vif_scale2_min_val/);
    expect(() => floatVifOptions.parseStrings({ vif_prescale_method: "area" })).toThrow(/vif_prescale_method/);
  });

  test("a kernel scale outside libvmaf's list is rejected at init", () => {
    const options = floatVifOptions.parseStrings({ vif_kernelscale: "1.3" });
    expect(() => floatVifDefinition.checkFormat!(options, format(576, 324))).toThrow(/vif_kernelscale/);
    expect(() => floatVifDefinition.checkFormat!(floatVifOptions.parseStrings({ vif_kernelscale: "1.5" }), format(576, 324))).not.toThrow();
  });

  test("bit depths libvmaf's float conversion handles; too small pictures for the kernel", () => {
    for (const bitDepth of [8, 10, 12, 16]) expect(() => floatVifDefinition.checkFormat!(defaults, format(64, 64, bitDepth))).not.toThrow();
    expect(() => floatVifDefinition.checkFormat!(defaults, format(64, 64, 9))).toThrow(/9-bit/);
    expect(() => floatVifDefinition.checkFormat!(defaults, format(16, 16))).not.toThrow();
    expect(() => floatVifDefinition.checkFormat!(defaults, format(15, 16))).toThrow(/too small/);
    // a kernel twice as wide needs a larger picture
    expect(() => floatVifDefinition.checkFormat!({ ...defaults, vif_kernelscale: 2 }, format(24, 24))).toThrow(/too small/);
    expect(() => floatVifDefinition.checkFormat!({ ...defaults, vif_kernelscale: 2 }, format(32, 32))).not.toThrow();
    // prescaling applies before the size check
    expect(() => floatVifDefinition.checkFormat!({ ...defaults, vif_prescale: 0.5 }, format(24, 24))).toThrow(/12x12/);
  });
});

describe("float_vif feature names", () => {
  test("defaults: libvmaf's aliases in its writing order (golden `all` and `debug` runs)", () => {
    const pair = goldenPairs()[0]!;
    const keys = (run: string) => Object.keys(goldenOutput(goldenRun(pair, run), true).frames[0]!.metrics).filter((k) => /^vif(_|$)/.test(k));
    expect(floatVifDefinition.providedFeatures(defaults)).toEqual(keys("all"));
    expect(floatVifDefinition.providedFeatures({ ...defaults, debug: true })).toEqual(keys("debug"));
  });

  test("non-default feature parameters add alias suffixes, sorted by option name", () => {
    const names = floatVifDefinition.providedFeatures({ ...defaults, vif_prescale_method: "bicubic", vif_kernelscale: 0.5, vif_enhn_gain_limit: 1 });
    expect(names[0]).toBe("vif_scale0_egl_1_ks_0.5_pm_bicubic");
    expect(floatVifDefinition.providedFeatures({ ...defaults, debug: true, vif_sigma_nsq: 1.5 })[4]).toBe("vif_snsq_1.5");
  });
});

describe("float_vif building blocks", () => {
  test("filter lengths and taps: 17, 9, 5, 3 taps at kernel scale 1, normalised and symmetric", () => {
    expect([0, 1, 2, 3].map((s) => floatVifFilterSize(s, 1))).toEqual([17, 9, 5, 3]);
    expect([0, 1, 2, 3].map((s) => floatVifFilterSize(s, 0.5))).toEqual([9, 5, 3, 3]);
    for (let s = 0; s < 4; s++) {
      const f = floatVifFilter(s, 1);
      for (let i = 0; i < f.length; i++) expect(f[i]).toBe(f[f.length - 1 - i]!);
      expect(Math.abs(f.reduce((a, b) => a + b, 0) - 1)).toBeLessThan(1e-6);
    }
  });

  test("log2fApprox is close to log2 and exact at powers of two", () => {
    expect(log2fApprox(1)).toBe(0);
    expect(log2fApprox(1024)).toBe(10);
    expect(log2fApprox(0)).toBe(-Infinity);
    expect(log2fApprox(-1)).toBeNaN();
    for (const x of [1.5, 3, 7.25, 1000.5, 12345.678]) expect(Math.abs(log2fApprox(Math.fround(x)) - Math.log2(x))).toBeLessThan(1e-5);
  });
});

describe("FloatVifCpu options at work", () => {
  test("prescale 1 with any method leaves the scores as libvmaf's defaults (golden)", async () => {
    const pair = goldenPairs().find((p) => p.pair === "odd_321x241_444.x264crf32")!;
    const frame = await firstFrames(pair.pair);
    const golden = goldenOutput(goldenRun(pair, "all"), true).frames[0]!.metrics;
    const scores = Object.fromEntries(scoreFrame({ vif_prescale_method: "lanczos4" }, frame));
    for (let s = 0; s < 4; s++) expect(scores[`vif_scale${s}_pm_lanczos4`]).toBe(golden[`vif_scale${s}`]!);
  });

  test("the min_val options floor scales 1-3; skip_scale0 reports 0 and keeps scales 1-3 (golden)", async () => {
    const pair = goldenPairs().find((p) => p.pair === "odd_321x241_444.x264crf32")!;
    const frame = await firstFrames(pair.pair);
    const golden = goldenOutput(goldenRun(pair, "debug"), true).frames[0]!.metrics;
    const floored = Object.fromEntries(scoreFrame({ vif_scale1_min_val: 1, vif_scale3_min_val: 0.5 }, frame));
    expect(floored["vif_scale1_s1miv_1_s3miv_0.5"]).toBe(1);
    expect(floored["vif_scale2_s1miv_1_s3miv_0.5"]).toBe(golden.vif_scale2!);
    expect(floored["vif_scale3_s1miv_1_s3miv_0.5"]).toBe(Math.max(golden.vif_scale3!, 0.5));
    const skipped = Object.fromEntries(scoreFrame({ vif_skip_scale0: true, debug: true }, frame));
    expect(skipped.vif_scale0_ssclz).toBe(0);
    expect(skipped.vif_den_scale0_ssclz).toBe(-1);
    for (const s of [1, 2, 3]) expect(skipped[`vif_scale${s}_ssclz`]).toBe(golden[`vif_scale${s}`]!);
    expect(skipped.vif_num_ssclz).toBe(golden.vif_num_scale1! + golden.vif_num_scale2! + golden.vif_num_scale3!);
  });

  test("prescaling, other kernels and noise variances give finite scores of the prescaled size", async () => {
    const frame = await firstFrames("odd_321x241_444.noise");
    for (const options of [
      { vif_prescale: 0.5, vif_prescale_method: "nearest" },
      { vif_prescale: 1.5, vif_prescale_method: "bilinear" },
      { vif_prescale: 0.75, vif_prescale_method: "bicubic" },
      { vif_prescale: 1.25, vif_prescale_method: "lanczos4" },
      { vif_kernelscale: 1.5 },
      { vif_kernelscale: 0.5, vif_sigma_nsq: 1 },
    ] as Partial<FloatVifOptions>[]) {
      for (const [name, score] of scoreFrame(options, frame)) expect(Number.isFinite(score) && score > 0 && score < 2, `${name} = ${score}`).toBe(true);
    }
  });
});
