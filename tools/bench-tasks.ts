// The pieces every package's tinybench bench (packages/*/bench) repeats: golden frames to
// measure on, an extractor's one-frame CPU task, a GpuFrameRunner's batch task, and the
// rate table. Benchmark support only, never a parity reference.
import type { Bench } from "tinybench";
import { FeatureCollector, Picture, Y4mReader, type FeatureExtractor, type PicturePair } from "../packages/core/src/index.ts";
import { goldenPairs, goldenPath } from "../packages/core/src/golden.ts";
import type { GpuFrameRunner } from "../packages/gpu-core/src/index.ts";

/** The 1080p golden pair (nat_1920x1080, x264 crf 35) most benches measure on. */
export const GOLDEN_1080P = { ref: "vectors/nat_1920x1080.ref.y4m", dist: "vectors/nat_1920x1080.x264crf35.y4m" } as const;

/** A golden video's first `count` frames, each in its own buffer (a reader may reuse its buffer). */
export async function firstFrames(path: string, count = 1): Promise<Picture[]> {
  const reader = await Y4mReader.open(goldenPath(path));
  const frames: Picture[] = [];
  for (let i = 0; i < count; i++) {
    const p = await reader.read();
    if (!p) throw new Error(`${path} has fewer than ${count} frames`);
    frames.push(new Picture(p.format, p.buffer.slice(), p.planes));
  }
  await reader.close();
  return frames;
}

/** A golden video's first frame. */
export async function firstFrame(path: string): Promise<Picture> {
  return (await firstFrames(path))[0]!;
}

/** The first frames of a golden pair's reference and distorted videos (`pair` as golden's index names it). */
export async function firstFramePair(pair: string): Promise<PicturePair> {
  const entry = goldenPairs().find((p) => p.pair === pair);
  if (!entry) throw new Error(`no golden pair ${pair}`);
  return { ref: await firstFrame(entry.reference), dist: await firstFrame(entry.distorted) };
}

/** Frame indices must be unique per collector: a fresh one every so often keeps it small. */
const INDICES_PER_COLLECTOR = 10000;

/** One extract call per iteration on `extractor`, initialised here once (init allocates; extract does not). */
export function cpuFrameTask(extractor: FeatureExtractor, pairAt: (index: number) => PicturePair): () => void {
  extractor.init(pairAt(0).ref.format);
  let index = 0;
  let collector = new FeatureCollector();
  return () => {
    if (index > INDICES_PER_COLLECTOR) {
      index = 0;
      collector = new FeatureCollector();
    }
    extractor.extract(pairAt(index), index++, collector);
  };
}

/** `batch` pipelined frames per iteration through an initialised runner: upload, kernels, one readback per frame, a flush. */
export function gpuBatchTask(runner: GpuFrameRunner, pairAt: (index: number) => PicturePair, batch: number): () => Promise<void> {
  let index = 0;
  let collector = new FeatureCollector();
  return async () => {
    if (index > INDICES_PER_COLLECTOR) {
      index = 0;
      collector = new FeatureCollector();
    }
    for (let i = 0; i < batch; i++) await runner.submit(pairAt(index), index++, collector);
    await runner.flush(collector);
  };
}

/** A task's mean milliseconds per iteration (tinybench 6 reports latency; older ones period). */
export function msPerIteration(task: Bench["tasks"][number]): number {
  const r = task.result as { latency?: { mean: number }; period?: number } | undefined;
  return r?.latency?.mean ?? r?.period ?? NaN;
}

/** Prints the device and each task's time and frame rate; tasks named "… gpu …" count `batch` frames an iteration. */
export function printFrameRates(bench: Bench, device: string | undefined, batch: number): void {
  console.log(`device: ${device ?? "no GPU adapter"}`);
  console.table(
    bench.tasks.map((t) => {
      const ms = msPerIteration(t);
      const frames = t.name.includes("gpu") ? batch : 1;
      return { task: t.name, "ms/iteration": ms.toFixed(3), fps: ((frames * 1000) / ms).toFixed(1) };
    }),
  );
}
