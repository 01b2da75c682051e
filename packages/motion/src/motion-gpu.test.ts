import { describe, expect, test } from "bun:test";
import { FeatureCollector, Picture, VqError, Y4mReader, scoreVideos, type PictureFormat, type VideoReader } from "@vq/core";
import { GpuBackend, GpuFrameRunner, type FrameRunnerOptions } from "@vq/gpu-core";
import { pictureReader, seededRandom } from "@vq/core/testing";
import { gpuForTests } from "@vq/gpu-core/testing";
import { motionDefinition, motionFeatureNames, motionOptions, type MotionOptions } from "./definition.ts";
import { motionFeature } from "./index.ts";
import { MotionCpu } from "./motion-cpu.ts";
import { MotionGpu } from "./motion-gpu.ts";

const gpu = await gpuForTests();

/** Deterministic sample noise: xorshift32 words (an odd seed, as these tests always used). */
function noise(seed: number): () => number {
  const random = seededRandom(seed | 1);
  return () => random() * 2 ** 32;
}

/**
 * Synthetic clips with the extremes the golden set lacks: full-range noise, blocks that flip
 * between 0 and the largest sample each frame, flat frames at 0 and at the maximum, and single
 * bright samples at the corners (the mirrored edges). `top` is the largest sample written: the
 * bit depth's maximum, or 65535 for files whose samples carry bits beyond their depth.
 */
function syntheticClip(format: PictureFormat, frames: number, top: number, seed: number): Picture[] {
  const next = noise(seed);
  const kinds = ["noise", "blocks", "blocks-inverted", "flat-top", "corners", "flat-zero", "noise"] as const;
  return Array.from({ length: frames }, (_, k) => {
    const p = Picture.allocate(format);
    const luma = p.planes[0]!;
    const kind = kinds[k % kinds.length]!;
    for (let y = 0; y < luma.height; y++) {
      for (let x = 0; x < luma.width; x++) {
        const block = ((x >> 3) + (y >> 2)) & 1;
        const corner = (x === 0 || x === luma.width - 1) && (y === 0 || y === luma.height - 1);
        const v =
          kind === "noise" ? next() % (top + 1)
          : kind === "blocks" ? block * top
          : kind === "blocks-inverted" ? (1 - block) * top
          : kind === "flat-top" ? top
          : kind === "corners" ? (corner ? top : 0)
          : 0;
        luma.data[y * luma.stride + x] = v;
      }
    }
    // chroma is never read by motion: fill it with noise to make sure
    for (const plane of p.planes.slice(1)) for (let i = 0; i < plane.data.length; i++) plane.data[i] = next() % (top + 1);
    return p;
  });
}

function clipReader(format: PictureFormat, pictures: Picture[]): VideoReader {
  return pictureReader("synthetic", format, pictures);
}

function onCpu(format: PictureFormat, pictures: Picture[], options: MotionOptions): FeatureCollector {
  const motion = new MotionCpu(options);
  const collector = new FeatureCollector();
  motion.init(format);
  pictures.forEach((p, i) => motion.extract({ ref: p, dist: pictures[0]! }, i, collector));
  motion.flush(collector);
  return collector;
}

async function onGpu(format: PictureFormat, pictures: Picture[], options: MotionOptions, runnerOptions: FrameRunnerOptions = {}): Promise<FeatureCollector> {
  const { collector } = await scoreVideos(clipReader(format, pictures), clipReader(format, pictures.map(() => pictures[0]!)), new GpuBackend(gpu!, [new MotionGpu(options)], runnerOptions));
  return collector;
}

function expectSameScores(gpuScores: FeatureCollector, cpuScores: FeatureCollector, frames: number, options: MotionOptions): void {
  const names = motionDefinition.providedFeatures(options);
  expect(gpuScores.names().sort()).toEqual([...names].sort());
  for (const name of names) {
    const series = (c: FeatureCollector) => Array.from({ length: frames }, (_, i) => c.get(name, i));
    expect(series(gpuScores), name).toEqual(series(cpuScores));
  }
}

/** `wideSad`: some frame's SAD needs more than 32 bits (checked on the CPU's scores). */
const CASES: { what: string; format: PictureFormat; frames: number; top?: number; wideSad?: true; options: Record<string, string> }[] = [
  { what: "8-bit 5x4, debug", format: { width: 5, height: 4, bitDepth: 8, pixelFormat: "420" }, frames: 7, options: { debug: "true" } },
  { what: "10-bit 67x33, debug", format: { width: 67, height: 33, bitDepth: 10, pixelFormat: "420" }, frames: 7, options: { debug: "true" } },
  {
    what: "12-bit 257x19 (a last chunk of one column), five-frame window, moving average, max 18",
    format: { width: 257, height: 19, bitDepth: 12, pixelFormat: "422" },
    frames: 8,
    options: { motion_five_frame_window: "true", motion_moving_average: "true", motion_max_val: "18" },
  },
  {
    what: "16-bit 300x240 (SAD beyond 2^32), blend, fps weight",
    format: { width: 300, height: 240, bitDepth: 16, pixelFormat: "444" },
    frames: 7,
    wideSad: true,
    options: { motion_blend_factor: "0.5", motion_blend_offset: "3", motion_fps_weight: "2.5", debug: "true" },
  },
  {
    what: "10-bit 3x3 with samples beyond the bit depth (up to 65535), five-frame window",
    format: { width: 3, height: 3, bitDepth: 10, pixelFormat: "400" },
    frames: 7,
    top: 65535,
    options: { motion_five_frame_window: "true" },
  },
  {
    what: "9-bit 513x7 with samples beyond the bit depth (up to 65535)",
    format: { width: 513, height: 7, bitDepth: 9, pixelFormat: "420" },
    frames: 7,
    top: 65535,
    options: { debug: "true" },
  },
  { what: "12-bit 31x17, forced to zero", format: { width: 31, height: 17, bitDepth: 12, pixelFormat: "420" }, frames: 4, options: { motion_force_zero: "true", debug: "true" } },
];

describe.skipIf(!gpu)("motion on the GPU equals the CPU on synthetic extremes", () => {
  for (const c of CASES) {
    test(
      c.what,
      async () => {
        const options = motionOptions.parseStrings(c.options);
        const pictures = syntheticClip(c.format, c.frames, c.top ?? 2 ** c.format.bitDepth - 1, c.format.width * 31 + c.format.bitDepth);
        const cpu = onCpu(c.format, pictures, options);
        expectSameScores(await onGpu(c.format, pictures, options), cpu, c.frames, options);
        // the case must not be trivial: some frame moved (unless forced to zero)
        const sad = motionFeatureNames(options).sad;
        const moved = Array.from({ length: c.frames }, (_, i) => cpu.get(sad, i)!).some((s) => s > 0);
        expect(moved).toBe(!options.motion_force_zero);
        if (c.wideSad) {
          const largest = Math.max(...Array.from({ length: c.frames }, (_, i) => cpu.get(sad, i)!));
          expect((largest / options.motion_fps_weight) * 256 * c.format.width * c.format.height).toBeGreaterThan(2 ** 32);
        }
      },
      60_000,
    );
  }

  test("batches of any size give the CPU's scores: the ring keeps the frames the next batch compares with", async () => {
    const format: PictureFormat = { width: 37, height: 21, bitDepth: 10, pixelFormat: "420" };
    // 11 frames: batches of 2, 3 and 8 end with a partial one; a batch of 1 has a single
    // frame to compare with its predecessor(s) in the ring
    const pictures = syntheticClip(format, 11, 1023, 3);
    for (const o of [{ debug: "true" }, { motion_five_frame_window: "true", debug: "true" }] as Record<string, string>[]) {
      const options = motionOptions.parseStrings(o);
      const cpu = onCpu(format, pictures, options);
      // --subsample does not thin temporal stages: they see every frame
      for (const runnerOptions of [{ batchFrames: 1 }, { batchFrames: 2 }, { batchFrames: 3 }, { batchFrames: 8 }, { batchFrames: 3, subsample: 2 }]) {
        expectSameScores(await onGpu(format, pictures, options, runnerOptions), cpu, pictures.length, options);
      }
    }
  }, 120_000);

  test("16-bit rows whose uint32 sum wraps (65600 samples wide) match the CPU", async () => {
    const format: PictureFormat = { width: 65600, height: 3, bitDepth: 16, pixelFormat: "400" };
    const flat = (v: number) => {
      const p = Picture.allocate(format);
      p.planes[0]!.data.fill(v);
      return p;
    };
    const pictures = [flat(0), flat(65535), flat(0)];
    const options = motionOptions.resolve({ debug: true });
    const cpu = onCpu(format, pictures, options);
    expectSameScores(await onGpu(format, pictures, options), cpu, pictures.length, options);
    // every blurred difference is 65535: unwrapped, the score would be 65535 / 256
    expect(cpu.get("integer_motion", 1)!).toBeLessThan(65535 / 256 / 2);
  }, 120_000);
});

describe.skipIf(!gpu)("MotionGpu as a stage", () => {
  test("motionFeature builds it; it is temporal and reads two result words", () => {
    const stage = motionFeature.gpu!(motionOptions.resolve());
    expect(stage).toBeInstanceOf(MotionGpu);
    expect(stage.temporal).toBe(true);
    expect(stage.resultWords).toBe(2);
  });

  test("pictures smaller than the blur are rejected with a VqError", () => {
    const stage = new MotionGpu(motionOptions.resolve());
    expect(() => stage.init(gpu!, { width: 2, height: 32, bitDepth: 8, pixelFormat: "420" })).toThrow(VqError);
    expect(() => stage.init(gpu!, { width: 32, height: 32, bitDepth: 7, pixelFormat: "420" } as PictureFormat)).toThrow(VqError);
  });

  test("a frame after a gap is a VqError, not a wrong score", async () => {
    const format: PictureFormat = { width: 16, height: 8, bitDepth: 8, pixelFormat: "420" };
    const runner = new GpuFrameRunner(gpu!, [new MotionGpu(motionOptions.resolve())], { batchFrames: 1 });
    await runner.init(format);
    const p = Picture.allocate(format);
    const collector = new FeatureCollector();
    // the batch is encoded once full or flushed: the error comes from one or the other
    const err = await (async () => {
      for (const i of [0, 1, 3]) await runner.submit({ ref: p, dist: p }, i, collector);
      await runner.flush(collector);
    })().catch((e) => e);
    await runner.close();
    expect(err).toBeInstanceOf(VqError);
    expect(err.message).toContain("frame 3 came after frame 1");
  });

  test("a run started mid-video (a warm-up): from its warm-up on, the scores of a run from frame 0", async () => {
    const format: PictureFormat = { width: 24, height: 10, bitDepth: 8, pixelFormat: "420" };
    for (const options of [motionOptions.resolve({ debug: true }), motionOptions.resolve({ debug: true, motion_five_frame_window: true, motion_moving_average: true })]) {
      const pictures = syntheticClip(format, 7, 255, 9);
      const start = 2;
      const runner = new GpuFrameRunner(gpu!, [new MotionGpu(options)], { batchFrames: 2 });
      await runner.init(format);
      const collector = new FeatureCollector();
      try {
        for (let i = start; i < pictures.length; i++) await runner.submit({ ref: pictures[i]!, dist: pictures[i]! }, i, collector);
        await runner.flush(collector);
      } finally {
        await runner.close();
      }
      const full = onCpu(format, pictures, options);
      const warm = start + motionDefinition.warmUpFrames!(options);
      for (const name of collector.names()) for (let i = warm; i < pictures.length; i++) expect(`${name}[${i}] ${collector.get(name, i)}`).toBe(`${name}[${i}] ${full.get(name, i)}`);
    }
  });

  test("a runner that starts again at frame 0 starts the stage's history afresh", async () => {
    const format: PictureFormat = { width: 24, height: 10, bitDepth: 8, pixelFormat: "420" };
    const options = motionOptions.resolve({ debug: true, motion_five_frame_window: true });
    const runner = new GpuFrameRunner(gpu!, [new MotionGpu(options)], { batchFrames: 3 });
    await runner.init(format);
    try {
      for (const seed of [5, 6]) {
        const pictures = syntheticClip(format, 7, 255, seed);
        const collector = new FeatureCollector();
        for (const [i, p] of pictures.entries()) await runner.submit({ ref: p, dist: p }, i, collector);
        await runner.flush(collector);
        expectSameScores(collector, onCpu(format, pictures, options), pictures.length, options);
      }
    } finally {
      await runner.close();
    }
  });

  test("a stage runs again after init, with fresh history", async () => {
    const format: PictureFormat = { width: 40, height: 12, bitDepth: 10, pixelFormat: "420" };
    const pictures = syntheticClip(format, 4, 1023, 7);
    const options = motionOptions.resolve({ debug: true });
    const stage = new MotionGpu(options);
    const backend = () => new GpuBackend(gpu!, [stage]);
    const first = await scoreVideos(clipReader(format, pictures), clipReader(format, pictures), backend());
    const second = await scoreVideos(clipReader(format, pictures), clipReader(format, pictures), backend());
    expectSameScores(second.collector, first.collector, pictures.length, options);
    expectSameScores(first.collector, onCpu(format, pictures, options), pictures.length, options);
  });
});
