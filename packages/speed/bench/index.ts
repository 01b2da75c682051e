// tinybench: SpEED at 1080p (the nat_1920x1080 golden pair, its first two frames taken in
// turn so speed_temporal sees real differences). CPU: one frame per iteration; GPU: a batch
// of 8 pipelined frames per iteration (upload, kernels, one readback per frame).
import { Bench } from "tinybench";
import { FeatureCollector, Y4mReader, type Picture } from "@vq/core";
import { goldenPath } from "@vq/core/golden";
import { GpuFrameRunner, type GpuStage } from "@vq/gpu-core";
import { gpuForTests } from "@vq/gpu-core/testing";
import { speedChromaOptions, speedTemporalOptions } from "../src/definition.ts";
import { SpeedChromaCpu } from "../src/speed-chroma-cpu.ts";
import { SpeedChromaGpu } from "../src/speed-chroma-gpu.ts";
import { SpeedTemporalCpu } from "../src/speed-temporal-cpu.ts";
import { SpeedTemporalGpu } from "../src/speed-temporal-gpu.ts";

async function firstFrames(path: string): Promise<Picture[]> {
  const r = await Y4mReader.open(goldenPath(path));
  const frames: Picture[] = [];
  for (let i = 0; i < 2; i++) {
    const p = (await r.read())!;
    frames.push(new (p.constructor as typeof Picture)(p.format, p.buffer.slice()));
  }
  await r.close();
  return frames;
}

const refs = await firstFrames("vectors/nat_1920x1080.ref.y4m");
const dists = await firstFrames("vectors/nat_1920x1080.x264crf35.y4m");
const pair = (i: number) => ({ ref: refs[i % 2]!, dist: dists[i % 2]! });
const format = refs[0]!.format;
const bench = new Bench({ time: 2000, warmup: true });

for (const [name, extractor] of [
  ["speed_chroma", new SpeedChromaCpu(speedChromaOptions.defaults)],
  ["speed_temporal", new SpeedTemporalCpu(speedTemporalOptions.defaults)],
] as const) {
  extractor.init(format);
  let index = 0;
  let collector = new FeatureCollector();
  bench.add(`${name} cpu 1080p (1 frame)`, () => {
    if (index > 10000) {
      index = 0;
      collector = new FeatureCollector();
    }
    extractor.extract(pair(index), index++, collector);
  });
}

const gpu = await gpuForTests();
const BATCH = 8;
if (gpu) {
  const gpuTasks: [string, () => GpuStage[]][] = [
    ["speed_chroma", () => [new SpeedChromaGpu(speedChromaOptions.defaults)]],
    ["speed_temporal", () => [new SpeedTemporalGpu(speedTemporalOptions.defaults)]],
    ["speed_chroma + speed_temporal", () => [new SpeedChromaGpu(speedChromaOptions.defaults), new SpeedTemporalGpu(speedTemporalOptions.defaults)]],
  ];
  for (const [name, stages] of gpuTasks) {
    const runner = new GpuFrameRunner(gpu, stages(), { depth: 3 });
    await runner.init(format);
    let index = 0;
    let collector = new FeatureCollector();
    bench.add(`${name} gpu 1080p (${BATCH} frames, upload to readback)`, async () => {
      if (index > 10000) {
        index = 0;
        collector = new FeatureCollector();
      }
      for (let i = 0; i < BATCH; i++) await runner.submit(pair(index), index++, collector);
      await runner.flush(collector);
    });
  }
}

await bench.run();
console.log(`device: ${gpu?.description ?? "no GPU adapter"}`);
console.table(
  bench.tasks.map((t) => {
    const r = t.result as { latency?: { mean: number }; period?: number } | undefined;
    const ms = r?.latency?.mean ?? r?.period ?? NaN;
    const frames = t.name.includes("gpu") ? BATCH : 1;
    return { task: t.name, "ms/iteration": ms.toFixed(3), fps: ((frames * 1000) / ms).toFixed(1) };
  }),
);
process.exit(0);
