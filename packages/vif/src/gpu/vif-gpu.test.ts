import { describe, expect, test } from "bun:test";
import { FeatureCollector, Picture, VqError, type PictureFormat } from "@vq/core";
import { GpuFrameRunner, type FrameRunnerOptions } from "@vq/gpu-core";
import { gpuForTests } from "@vq/gpu-core/testing";
import { vifOptions, type VifOptions } from "../definition.ts";
import { vifFeature } from "../index.ts";
import { VifCpu } from "../cpu/vif-cpu.ts";
import { VifGpu } from "./vif-gpu.ts";
import { seededRandom as random } from "@vq/core/testing";

const gpu = await gpuForTests();

/**
 * Frame pairs of a kind the golden set lacks, over the full range of `bitDepth`: hard
 * black/white edges (the largest variances the fixed point holds), full-range noise, an
 * enhanced copy (gains above 1, where vif_enhn_gain_limit bites), an inverted copy
 * (negative covariance), flat areas (the linear branch) and an identical copy.
 */
const PATTERNS: ((x: number, y: number, max: number, next: () => number) => [number, number])[] = [
  (x, y, max, next) => {
    const on = ((x >> 1) + (y >> 2)) & 1;
    return [on ? max - next() * max * 0.02 : next() * max * 0.02, on ? max * 0.9 : max * 0.05 + next() * max * 0.1];
  },
  (_x, _y, max, next) => [next() * max, next() * max],
  (x, y, max, next) => {
    const r = max / 2 + (max / 6) * Math.sin(x / 3 + y / 5) + (next() - 0.5) * max * 0.05;
    return [r, max / 2 + 3 * (r - max / 2)];
  },
  (x, y, max, next) => {
    const r = (((x * 7 + y * 13) % 64) / 64) * max + next() * max * 0.1;
    return [r, max - r];
  },
  (_x, _y, max, next) => {
    const r = max * 0.3 + next() * 2;
    return [r, r + next() * 3];
  },
  (x, y, max, next) => {
    const r = ((x ^ y) & 4 ? max : 0) * (0.5 + next() / 2);
    return [r, r];
  },
];

function framePair(format: PictureFormat, pattern: number, seed: number): { ref: Picture; dist: Picture } {
  const ref = Picture.allocate(format);
  const dist = Picture.allocate(format);
  const next = random(seed);
  const max = 2 ** format.bitDepth - 1;
  const clamp = (v: number) => Math.min(max, Math.max(0, Math.round(v)));
  const [r, d] = [ref.planes[0]!, dist.planes[0]!];
  for (let y = 0; y < format.height; y++) {
    for (let x = 0; x < format.width; x++) {
      const [a, b] = PATTERNS[pattern]!(x, y, max, next);
      r.data[y * r.stride + x] = clamp(a);
      d.data[y * d.stride + x] = clamp(b);
    }
  }
  return { ref, dist };
}

async function gpuScores(stages: VifGpu[], format: PictureFormat, frames: { ref: Picture; dist: Picture }[], options: FrameRunnerOptions = {}): Promise<FeatureCollector> {
  const runner = new GpuFrameRunner(gpu!, stages, options);
  await runner.init(format);
  const collector = new FeatureCollector();
  for (const [i, frame] of frames.entries()) await runner.submit(frame, i, collector);
  await runner.flush(collector);
  await runner.close();
  return collector;
}

function cpuScores(options: VifOptions, format: PictureFormat, frames: { ref: Picture; dist: Picture }[]): FeatureCollector {
  const cpu = new VifCpu(options);
  cpu.init(format);
  const collector = new FeatureCollector();
  for (const [i, frame] of frames.entries()) cpu.extract(frame, i, collector);
  return collector;
}

const OPTION_SETS: Record<string, string>[] = [
  { debug: "true" },
  { debug: "true", vif_enhn_gain_limit: "1" },
  { debug: "true", vif_enhn_gain_limit: "1.37" },
  { debug: "true", vif_skip_scale0: "true" },
];

describe.skipIf(!gpu)("integer vif on the GPU equals the CPU", () => {
  for (const [width, height, bitDepths] of [
    [67, 45, [8, 9, 10, 12, 14, 16]],
    [16, 16, [8, 16]],
    [33, 130, [10, 16]],
  ] as const) {
    for (const bitDepth of bitDepths) {
      test(`${width}x${height} ${bitDepth}-bit extreme frames, every option set`, async () => {
        const format: PictureFormat = { width, height, bitDepth, pixelFormat: "420" };
        const frames = PATTERNS.map((_, p) => framePair(format, p, p * 31 + bitDepth));
        const optionSets = OPTION_SETS.map((o) => vifOptions.parseStrings(o));
        // every option set writes its own keys, so all run in one pass of the frames
        const onGpu = await gpuScores(optionSets.map((o) => new VifGpu(o)), format, frames);
        let compared = 0;
        for (const options of optionSets) {
          const onCpu = cpuScores(options, format, frames);
          for (let i = 0; i < frames.length; i++) {
            for (const [name, score] of onCpu.frame(i)) {
              expect(Number.isFinite(score), `${name} frame ${i}`).toBe(true);
              expect(onGpu.get(name, i), `${name} frame ${i} (pattern ${i})`).toBe(score);
              compared++;
            }
          }
        }
        expect(compared).toBe(frames.length * 15 * OPTION_SETS.length);
        expect(onGpu.names().length).toBe(15 * 4);
      }, 120_000);
    }
  }

  test("batches of any size give the CPU's scores, and so do the single frames of --subsample", async () => {
    const format: PictureFormat = { width: 67, height: 45, bitDepth: 10, pixelFormat: "420" };
    // 13 frames: batches of 3 and 8 end with a partial one
    const frames = Array.from({ length: 13 }, (_, i) => framePair(format, i % PATTERNS.length, 7 * i + 1));
    const options = vifOptions.parseStrings({ debug: "true" });
    const cpu = cpuScores(options, format, frames);
    for (const runnerOptions of [{ batchFrames: 1 }, { batchFrames: 3 }, { batchFrames: 8 }, { batchFrames: 8, subsample: 3 }, { batchFrames: 2, subsample: 2 }]) {
      const onGpu = await gpuScores([new VifGpu(options)], format, frames, runnerOptions);
      const step = runnerOptions.subsample ?? 1;
      for (let i = 0; i < frames.length; i++) {
        const what = `${JSON.stringify(runnerOptions)} frame ${i}`;
        if (i % step) expect(onGpu.frame(i), what).toEqual([]);
        else {
          expect(cpu.frame(i).length, what).toBe(15);
          expect(onGpu.frame(i), what).toEqual(cpu.frame(i));
        }
      }
    }
  }, 120_000);

  test("the same frame gives the same scores every time, through every frame slot", async () => {
    const format: PictureFormat = { width: 40, height: 24, bitDepth: 10, pixelFormat: "444" };
    const frame = framePair(format, 1, 5);
    const collector = await gpuScores([new VifGpu(vifOptions.parseStrings({ debug: "true" }))], format, Array(7).fill(frame));
    for (let i = 1; i < 7; i++) expect(collector.frame(i)).toEqual(collector.frame(0));
  });

  test("nothing is allocated per batch once every batch slot has been used, a last partial batch included", async () => {
    const format: PictureFormat = { width: 48, height: 32, bitDepth: 8, pixelFormat: "420" };
    const device = gpu!.device;
    const counts = { buffers: 0, bindGroups: 0 };
    const createBuffer = device.createBuffer.bind(device);
    const createBindGroup = device.createBindGroup.bind(device);
    // 3 slots of 2-frame batches: frames 0-5 use each slot once; frame 10 waits for the
    // slot of frames 4-5 to be collected, so every slot has been encoded by then; 20 is a partial batch
    const runner = new GpuFrameRunner(gpu!, [new VifGpu(vifOptions.resolve())], { depth: 3, batchFrames: 2 });
    await runner.init(format);
    const collector = new FeatureCollector();
    const frame = framePair(format, 0, 1);
    try {
      for (let i = 0; i < 11; i++) await runner.submit(frame, i, collector);
      device.createBuffer = (d) => (counts.buffers++, createBuffer(d));
      device.createBindGroup = (d) => (counts.bindGroups++, createBindGroup(d));
      for (let i = 11; i < 21; i++) await runner.submit(frame, i, collector);
      await runner.flush(collector);
    } finally {
      delete (device as { createBuffer?: unknown }).createBuffer;
      delete (device as { createBindGroup?: unknown }).createBindGroup;
      await runner.close();
    }
    expect(counts).toEqual({ buffers: 0, bindGroups: 0 });
    expect(collector.frameCount()).toBe(21);
  });

  test("unsupported formats are rejected with a VqError naming the problem", async () => {
    for (const [format, message] of [
      [{ width: 15, height: 64, bitDepth: 8, pixelFormat: "420" }, /15x64 picture is too small/],
      [{ width: 64, height: 64, bitDepth: 7, pixelFormat: "420" }, /(7-bit|bit depth 7)\b/],
      [{ width: 64, height: 64, bitDepth: 17, pixelFormat: "420" }, /(17-bit|bit depth 17)\b/],
    ] as const) {
      const runner = new GpuFrameRunner(gpu!, [new VifGpu(vifOptions.resolve())]);
      const err = await runner.init(format).catch((e) => e);
      expect(err).toBeInstanceOf(VqError);
      expect(err.message).toMatch(message);
    }
  });
});

test("vifFeature builds the GPU twin from the shared option table", () => {
  const stage = vifFeature.gpu!(vifOptions.parseStrings({ vif_enhn_gain_limit: "1", debug: "true" })) as VifGpu;
  expect(stage).toBeInstanceOf(VifGpu);
  expect(stage.names.scale[0]).toBe("integer_vif_scale0_egl_1");
  expect(stage.resultWords).toBe(28);
});
