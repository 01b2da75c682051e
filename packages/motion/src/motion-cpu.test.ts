import { describe, expect, test } from "bun:test";
import { FeatureCollector, Picture, type PictureFormat } from "@vq/core";
import { seededRandom } from "@vq/core/testing";
import { motionFeatureNames, motionOptions, type MotionOptions } from "./definition.ts";
import { MotionCpu } from "./motion-cpu.ts";

const format: PictureFormat = { width: 48, height: 20, bitDepth: 8, pixelFormat: "420" };

/** A panning random texture: frame i is the texture shifted by i columns, plus a little noise. */
function clip(frames: number): Picture[] {
  const random = seededRandom(12345);
  const next = () => random() * 2 ** 32; // xorshift32 words
  const texture = Array.from({ length: format.height }, () => Array.from({ length: format.width + frames * 3 }, () => next() % 256));
  return Array.from({ length: frames }, (_, i) => {
    const p = Picture.allocate(format);
    const y = p.planes[0]!;
    for (let r = 0; r < format.height; r++) {
      for (let c = 0; c < format.width; c++) y.data[r * y.stride + c] = Math.min(255, texture[r]![c + i * (1 + (i % 3))]! + (next() % 5));
    }
    return p;
  });
}

interface Scores {
  sad: number[];
  motion2: number[];
  motion3: number[];
  collector: FeatureCollector;
}

function run(pictures: Picture[], options: Partial<MotionOptions> = {}): Scores {
  const o = motionOptions.resolve(options);
  const motion = new MotionCpu(o);
  const collector = new FeatureCollector();
  motion.init(format);
  pictures.forEach((p, i) => motion.extract({ ref: p, dist: p }, i, collector));
  motion.flush(collector);
  motion.close();
  const n = motionFeatureNames(o);
  const series = (name: string) => pictures.map((_, i) => collector.get(name, i)!);
  return { sad: series(n.sad), motion2: series(n.motion2), motion3: series(n.motion3), collector };
}

const pictures = clip(9);
const base = run(pictures);

describe("MotionCpu frame delay and flush", () => {
  test("SAD scores are written per frame, motion2/motion3 once the next frame's score is in, the last frame's at flush", () => {
    const motion = new MotionCpu(motionOptions.resolve({ debug: true }));
    const collector = new FeatureCollector();
    motion.init(format);
    motion.extract({ ref: pictures[0]!, dist: pictures[0]! }, 0, collector);
    expect(collector.names()).toEqual(["VMAF_integer_feature_motion_sad_score", "integer_motion"]);
    pictures.forEach((p, i) => i > 0 && motion.extract({ ref: p, dist: p }, i, collector));
    expect(collector.names()).toEqual(["VMAF_integer_feature_motion_sad_score", "integer_motion", "integer_motion2", "integer_motion3"]);
    const last = pictures.length - 1;
    for (let i = 0; i < last; i++) expect([collector.get("integer_motion2", i), collector.get("integer_motion3", i)]).toEqual([base.motion2[i]!, base.motion3[i]!]);
    expect(collector.has("integer_motion2", last)).toBe(false);
    motion.flush(collector);
    expect(collector.get("integer_motion2", last)).toBe(base.motion2[last]!);
    expect(collector.names()).toEqual(["VMAF_integer_feature_motion_sad_score", "integer_motion", "integer_motion2", "integer_motion3"]);
    pictures.forEach((_, i) => expect(collector.get("integer_motion", i)).toBe(base.sad[i]!));
  });

  test("frame 0 has no motion; motion2 is the smaller of a frame's score and the next one's", () => {
    expect(base.sad[0]).toBe(0);
    expect(base.sad.slice(1).every((s) => s > 0)).toBe(true);
    expect(base.motion2[0]).toBe(0);
    for (let i = 1; i < pictures.length - 1; i++) expect(base.motion2[i]).toBe(Math.min(base.sad[i]!, base.sad[i + 1]!));
    expect(base.motion2.at(-1)).toBe(base.sad.at(-1)!);
  });

  test("the distorted picture is ignored", () => {
    const motion = new MotionCpu(motionOptions.resolve());
    const collector = new FeatureCollector();
    motion.init(format);
    pictures.forEach((p, i) => motion.extract({ ref: p, dist: pictures[(i * 5) % pictures.length]! }, i, collector));
    motion.flush(collector);
    expect(pictures.map((_, i) => collector.get("integer_motion3", i))).toEqual(base.motion3);
  });

  test("one frame scores 0; the five-frame window needs three", () => {
    const one = run(pictures.slice(0, 1));
    expect([one.sad, one.motion2, one.motion3]).toEqual([[0], [0], [0]]);
    const two = run(pictures.slice(0, 2), { motion_five_frame_window: true });
    expect([two.sad, two.motion2, two.motion3]).toEqual([
      [0, 0],
      [0, 0],
      [0, 0],
    ]);
  });

  test("flush without frames writes nothing", () => {
    const motion = new MotionCpu(motionOptions.resolve());
    const collector = new FeatureCollector();
    motion.init(format);
    motion.flush(collector);
    expect(collector.names()).toEqual([]);
  });
});

describe("MotionCpu options", () => {
  test("motion_force_zero writes zeros everywhere", () => {
    const z = run(pictures, { motion_force_zero: true });
    for (const series of [z.sad, z.motion2, z.motion3]) expect(series.every((s) => s === 0)).toBe(true);
    expect(z.collector.names()[0]).toBe("VMAF_integer_feature_motion_sad_score_force_0");
  });

  test("motion_fps_weight scales the SAD score", () => {
    const w = run(pictures, { motion_fps_weight: 2 });
    expect(w.sad).toEqual(base.sad.map((s) => s * 2));
  });

  test("motion_max_val clips every score", () => {
    const max = [...base.sad].sort((a, b) => a - b)[4]!;
    const c = run(pictures, { motion_max_val: max });
    expect(c.sad).toEqual(base.sad.map((s) => Math.min(s, max)));
    expect(c.motion3.every((s) => s <= max)).toBe(true);
    expect(c.motion3.some((s) => s === max)).toBe(true);
  });

  test("motion_blend_factor/offset compress motion above the offset only", () => {
    const offset = [...base.motion2].sort((a, b) => a - b)[4]!;
    const b = run(pictures, { motion_blend_factor: 0.5, motion_blend_offset: offset });
    expect(b.motion2).toEqual(base.motion2);
    for (let i = 1; i < pictures.length; i++) {
      const m = base.motion2[i]!;
      if (m <= offset) expect(b.motion3[i]).toBe(m);
      else expect(b.motion3[i]).toBe(0.5 * m + 0.5 * offset);
    }
  });

  test("motion_moving_average averages with the previous frame's motion3", () => {
    const a = run(pictures, { motion_moving_average: true });
    expect(a.motion3[0]).toBe(base.motion3[0]!);
    for (let i = 1; i < pictures.length; i++) expect(a.motion3[i]).toBe((base.motion3[i]! + base.motion3[i - 1]!) / 2);
  });

  test("motion_five_frame_window compares frame i with frame i-2 and takes motion2 from both neighbours", () => {
    const f = run(pictures, { motion_five_frame_window: true });
    expect(f.sad.slice(0, 2)).toEqual([0, 0]);
    for (let i = 2; i < pictures.length; i++) expect(f.sad[i]).toBe(run([pictures[i - 2]!, pictures[i]!]).sad[1]!);
    expect(f.motion2.slice(0, 2)).toEqual([0, 0]);
    // at i = 2 the earlier neighbour (i - 1) has no comparison yet: only the later one counts
    expect(f.motion2[2]).toBe(f.sad[3]!);
    for (let i = 3; i < pictures.length - 1; i++) expect(f.motion2[i]).toBe(Math.min(f.sad[i - 1]!, f.sad[i + 1]!));
    expect(f.motion2.at(-1)).toBe(f.sad.at(-1)!);
    // frames before the first comparison carry its motion3
    expect(f.motion3[0]).toBe(f.sad[2]!);
    expect(f.motion3[1]).toBe(f.sad[2]!);
  });
});
