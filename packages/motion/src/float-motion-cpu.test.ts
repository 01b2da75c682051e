import { describe, expect, test } from "bun:test";
import { FeatureCollector, isVqError, Picture, type PictureFormat } from "@vq/core";
import { seededRandom } from "@vq/core/testing";
import { floatMotionDefinition, floatMotionFeatureNames, floatMotionOptions, type FloatMotionOptions } from "./float-definition.ts";
import { FloatMotionCpu, FloatMotionExtractor } from "./float-motion-cpu.ts";
import { floatMotionFeature } from "./index.ts";

const format: PictureFormat = { width: 40, height: 24, bitDepth: 8, pixelFormat: "444" };

/** A panning random texture in all three planes; `sameChroma` copies luma into chroma. */
function clip(frames: number, sameChroma = false): Picture[] {
  const random = seededRandom(777);
  const next = () => random() * 2 ** 32; // xorshift32 words
  const texture = Array.from({ length: 3 * format.height }, () => Array.from({ length: format.width + 4 * frames }, () => next() % 256));
  return Array.from({ length: frames }, (_, i) => {
    const p = Picture.allocate(format);
    p.planes.forEach((plane, k) => {
      const src = sameChroma ? 0 : k;
      for (let r = 0; r < plane.height; r++) {
        for (let c = 0; c < plane.width; c++) plane.data[r * plane.stride + c] = texture[src * format.height + r]![c + i * (1 + (i % 4))]!;
      }
    });
    return p;
  });
}

interface Scores {
  motion: (number | undefined)[];
  motion2: number[];
  motion3: number[];
  collector: FeatureCollector;
}

function run(pictures: Picture[], options: Partial<FloatMotionOptions> = {}): Scores {
  const o = floatMotionOptions.resolve(options);
  const e = new FloatMotionCpu(o);
  const collector = new FeatureCollector();
  e.init(format);
  pictures.forEach((p, i) => e.extract({ ref: p, dist: p }, i, collector));
  e.flush(collector);
  const n = floatMotionFeatureNames(o);
  const series = (name: string) => pictures.map((_, i) => collector.get(name, i));
  return { motion: series(n.motion), motion2: series(n.motion2) as number[], motion3: series(n.motion3) as number[], collector };
}

const pictures = clip(8);
const base = run(pictures);

/** mean |a − b| of two pictures' luma in 8-bit units, in doubles: what filter size 1 (no blur) approximates in float. */
function meanAbsDifference(a: Picture, b: Picture, plane = 0): number {
  const pa = a.planes[plane]!;
  const pb = b.planes[plane]!;
  let sum = 0;
  for (let r = 0; r < pa.height; r++) for (let c = 0; c < pa.width; c++) sum += Math.abs(pa.data[r * pa.stride + c]! - pb.data[r * pb.stride + c]!);
  return sum / (pa.width * pa.height);
}

describe("FloatMotionCpu frame semantics", () => {
  test("frame 0: motion 0, motion2 0, motion3 from frame 1; motion2 is the smaller of neighbouring scores", () => {
    const m = base.motion as number[];
    expect(m[0]).toBe(0);
    expect(m.slice(1).every((s) => s > 0)).toBe(true);
    expect(base.motion2[0]).toBe(0);
    expect(base.motion3[0]).toBe(m[1]!);
    for (let i = 1; i < pictures.length - 1; i++) expect(base.motion2[i]).toBe(Math.min(m[i]!, m[i + 1]!));
    expect(base.motion2.at(-1)).toBe(m.at(-1)!);
    expect(base.motion3.slice(1)).toEqual(base.motion2.slice(1)); // default blend and clip change nothing here
  });

  test("output order is libvmaf's: motion2, motion (debug), motion3", () => {
    expect(base.collector.names()).toEqual(["motion2", "motion", "motion3"]);
    expect(floatMotionDefinition.providedFeatures(floatMotionOptions.resolve())).toEqual(["motion2", "motion", "motion3"]);
    expect(run(pictures, { debug: false }).collector.names()).toEqual(["motion2", "motion3"]);
  });

  test("one frame: zeros; no frames: nothing", () => {
    const one = run(pictures.slice(0, 1));
    expect([one.motion, one.motion2, one.motion3]).toEqual([[0], [0], [0]]);
    const e = new FloatMotionCpu(floatMotionOptions.resolve());
    const c = new FeatureCollector();
    e.init(format);
    e.flush(c);
    expect(c.names()).toEqual([]);
  });
});

describe("FloatMotionCpu options", () => {
  test("motion_filter_size 1 is no blur: the mean absolute difference of the pictures", () => {
    const raw = run(pictures, { motion_filter_size: 1 });
    for (let i = 1; i < pictures.length; i++) expect(raw.motion[i]!).toBeCloseTo(meanAbsDifference(pictures[i - 1]!, pictures[i]!), 4);
    expect(raw.collector.names()[0]).toBe("motion2_mfs_1");
  });

  test("motion_filter_size 3 blurs less than 5: more motion on noise-like texture", () => {
    const three = run(pictures, { motion_filter_size: 3 });
    const raw = run(pictures, { motion_filter_size: 1 });
    for (let i = 1; i < pictures.length; i++) {
      expect(three.motion[i]!).toBeGreaterThan(base.motion[i]!);
      expect(three.motion[i]!).toBeLessThan(raw.motion[i]!);
    }
  });

  test("motion_add_uv adds the chroma planes' scores", () => {
    const same = clip(5, true);
    const y = run(same);
    const yuv = run(same, { motion_add_uv: true });
    for (let i = 1; i < same.length; i++) expect(yuv.motion[i]).toBe(y.motion[i]! + y.motion[i]! + y.motion[i]!);
    expect(yuv.collector.names()).toEqual(["motion2_mau", "motion_mau", "motion3_mau"]);
  });

  test("motion_add_scale1 adds the score of the half-size pictures", () => {
    const s1 = run(pictures, { motion_add_scale1: true });
    for (let i = 1; i < pictures.length; i++) {
      expect(s1.motion[i]!).toBeGreaterThan(base.motion[i]!);
      expect(s1.motion[i]!).toBeLessThan(2 * base.motion[i]!);
    }
    // a uniform brightness step moves every sample, at both scales, by the same amount
    const flat = [Picture.allocate(format), Picture.allocate(format)];
    flat[1]!.planes[0]!.data.fill(3);
    expect(run(flat, { motion_add_scale1: true }).motion[1]!).toBeCloseTo(2 * run(flat).motion[1]!, 5);
  });

  test("motion_force_zero writes zeros per frame and nothing at flush", () => {
    const z = run(pictures, { motion_force_zero: true });
    for (const s of [z.motion, z.motion2, z.motion3]) expect(s.every((v) => v === 0)).toBe(true);
    expect(z.collector.names()).toEqual(["motion2_force_0", "motion3_force_0", "motion_force_0"]);
  });

  test("motion_fps_weight, motion_max_val, motion_blend_* act like the integer twin's", () => {
    const m = base.motion as number[];
    expect(run(pictures, { motion_fps_weight: 2 }).motion).toEqual(m.map((s) => s * 2));
    const max = [...m].sort((a, b) => a - b)[4]!;
    const c = run(pictures, { motion_max_val: max });
    expect(c.motion).toEqual(m.map((s) => Math.min(s, max)));
    expect(c.motion3.every((s) => s <= max)).toBe(true);
    const offset = max;
    const b = run(pictures, { motion_blend_factor: 0.5, motion_blend_offset: offset });
    for (let i = 1; i < pictures.length; i++) {
      const m2 = base.motion2[i]!;
      expect(b.motion3[i]).toBe(m2 <= offset ? m2 : 0.5 * m2 + 0.5 * offset);
    }
  });
});

describe("float_motion definition", () => {
  test("defaults are libvmaf's (debug on)", () => {
    expect(floatMotionOptions.resolve()).toEqual({
      debug: true,
      motion_force_zero: false,
      motion_fps_weight: 1,
      motion_blend_factor: 1,
      motion_blend_offset: 40,
      motion_add_scale1: false,
      motion_filter_size: 5,
      motion_add_uv: false,
      motion_max_val: 10000,
    });
  });

  test("bad options and formats are rejected", () => {
    const fails = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return isVqError(e);
      }
      return false;
    };
    expect(fails(() => floatMotionOptions.parseStrings({ motion_filter_size: "10" }))).toBe(true);
    expect(fails(() => floatMotionOptions.parseStrings({ motion_filter_size: "2.5" }))).toBe(true);
    expect(fails(() => floatMotionOptions.parseStrings({ motion_five_frame_window: "true" }))).toBe(true);
    expect(fails(() => floatMotionDefinition.checkFormat!(floatMotionOptions.resolve(), { ...format, bitDepth: 9 }))).toBe(true);
    expect(fails(() => floatMotionDefinition.checkFormat!(floatMotionOptions.resolve({ motion_add_uv: true }), { ...format, pixelFormat: "400" }))).toBe(true);
    expect(fails(() => floatMotionDefinition.checkFormat!(floatMotionOptions.resolve({ motion_add_uv: true }), { ...format, width: 4, height: 4, pixelFormat: "420" }))).toBe(true);
  });

  test("suffixes follow libvmaf's option order and aliases", () => {
    const n = floatMotionFeatureNames(floatMotionOptions.parseStrings({ motion_max_val: "18", motion_add_scale1: "true", motion_filter_size: "3", debug: "false" }));
    expect(n.motion3).toBe("motion3_mdc_mfs_3_mmxv_18");
    expect(floatMotionFeature.cpu(floatMotionOptions.resolve())).toBeInstanceOf(FloatMotionExtractor);
  });
});
