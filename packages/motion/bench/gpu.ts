// tinybench: integer motion at 1080p on the GPU through GpuFrameRunner. One iteration is a
// clip of BATCH frames (the runner's batches: one upload, two dispatches for all frames, one
// readback) with a fresh collector and a flush at the end (a full CPU-GPU round trip, and
// motion2/motion3).
import { Bench } from "tinybench";
import { FeatureCollector, type Picture } from "@vq/core";
import { goldenPairs } from "@vq/core/golden";
import { GpuFrameRunner } from "@vq/gpu-core";
import { gpuForTests } from "@vq/gpu-core/testing";
import { firstFrames } from "../../../tools/bench-tasks.ts";
import { motionOptions } from "../src/definition.ts";
import { MotionGpu } from "../src/motion-gpu.ts";

/** Every frame of a golden pair's reference and distorted videos. */
async function frames(pairName: string): Promise<{ refs: Picture[]; dists: Picture[] }> {
  const pair = goldenPairs().find((p) => p.pair === pairName);
  if (!pair) throw new Error(`no golden pair ${pairName}`);
  return { refs: await firstFrames(pair.reference, pair.frame_count), dists: await firstFrames(pair.distorted, pair.frame_count) };
}

const gpu = await gpuForTests();
if (!gpu) {
  console.log("no GPU adapter: nothing to benchmark");
  process.exit(0);
}

const BATCH = 8;
const hd = await frames("nat_1920x1080.x264crf35");
// At least 3 s and 10 iterations (2 to warm up): on a software rasteriser an iteration takes seconds.
const bench = new Bench({ name: "@vq/motion (GPU)", time: 3000, iterations: 10, warmupIterations: 2, warmup: true });

/** A runner with one motion stage; each iteration scores a BATCH-frame clip cycling through the 5 golden frames. */
async function clipTask(options: Parameters<typeof motionOptions.resolve>[0], profile = false) {
  const stage = new MotionGpu(motionOptions.resolve(options));
  const runner = new GpuFrameRunner(gpu!, [stage], { depth: 3, profile });
  await runner.init(hd.refs[0]!.format);
  const run = async () => {
    const collector = new FeatureCollector();
    for (let i = 0; i < BATCH; i++) await runner.submit({ ref: hd.refs[i % hd.refs.length]!, dist: hd.dists[i % hd.dists.length]! }, i, collector);
    await runner.flush(collector);
    return collector;
  };
  return { runner, run };
}

const plain = await clipTask({});
const window5 = await clipTask({ motion_five_frame_window: true, motion_moving_average: true, motion_max_val: 18 });
bench.add(`motion gpu 1920x1080 8-bit (${BATCH} frames, upload to readback)`, plain.run);
bench.add(`motion gpu 1920x1080 8-bit, five-frame window (${BATCH} frames)`, window5.run);
await bench.run();

console.log(`device: ${gpu.description}`);
console.table(
  bench.tasks.map((t) => {
    const r = t.result as { latency?: { mean: number; p50?: number; min: number } } | undefined;
    const fps = (ms: number | undefined) => (ms ? ((BATCH * 1000) / ms).toFixed(1) : "n/a");
    return { task: t.name, "ms/iteration (median)": r?.latency?.p50?.toFixed(2), "fps (median)": fps(r?.latency?.p50), "fps (best)": fps(r?.latency?.min) };
  }),
);

// GPU time per kernel (timestamp queries), where the adapter has them.
if (gpu.hasTimestamps) {
  const profiled = await clipTask({}, true);
  const ROUNDS = 4;
  for (let i = 0; i < ROUNDS; i++) await profiled.run();
  // each dispatch covers a batch of frames (the first frame of a clip has no SAD but is read)
  for (const [label, ns] of profiled.runner.gpuTimeNs) {
    console.log(`${label}: ${(ns / (ROUNDS * BATCH) / 1e3).toFixed(1)} µs GPU time per frame`);
  }
  await profiled.runner.close();
}
await plain.runner.close();
await window5.runner.close();
process.exit(0);
