// tinybench: float_ssim and float_ms_ssim at 1080p (nat_1920x1080 golden pair) on the CPU
// (one frame pair per iteration) and on the GPU (a batch of 8 pipelined frames per
// iteration: upload, kernels, one readback per frame, a flush per batch).
import { Bench } from "tinybench";
import { FeatureCollector, Y4mReader, type FeatureExtractor, type Picture } from "@vq/core";
import { goldenPath } from "@vq/core/golden";
import { GpuFrameRunner, type GpuStage } from "@vq/gpu-core";
import { gpuForTests } from "@vq/gpu-core/testing";
import { floatMsSsimOptions } from "../src/float-ms-ssim-definition.ts";
import { FloatMsSsimCpu } from "../src/float-ms-ssim-cpu.ts";
import { FloatMsSsimGpu } from "../src/float-ms-ssim-gpu.ts";
import { floatSsimOptions } from "../src/float-ssim-definition.ts";
import { FloatSsimCpu } from "../src/float-ssim-cpu.ts";
import { FloatSsimGpu } from "../src/float-ssim-gpu.ts";

async function firstFrame(path: string): Promise<Picture> {
  const r = await Y4mReader.open(goldenPath(path));
  const p = (await r.read())!;
  await r.close();
  return p;
}

const ref = await firstFrame("vectors/nat_1920x1080.ref.y4m");
const dist = await firstFrame("vectors/nat_1920x1080.x264crf35.y4m");
// at least 3 iterations and 3 s per task: lavapipe needs seconds per GPU batch at 1080p
const bench = new Bench({ time: 3000, iterations: 3, warmupTime: 500, warmupIterations: 1 });

function cpuTask(extractor: FeatureExtractor): () => void {
  extractor.init(ref.format);
  let index = 0;
  let collector = new FeatureCollector();
  return () => {
    if (index === 64) {
      index = 0; // keep the collector small; frame indices must be unique
      collector = new FeatureCollector();
    }
    extractor.extract({ ref, dist }, index++, collector);
  };
}

bench.add("float_ssim cpu 1080p (1 frame)", cpuTask(new FloatSsimCpu(floatSsimOptions.defaults)));
bench.add("float_ms_ssim cpu 1080p (1 frame)", cpuTask(new FloatMsSsimCpu(floatMsSsimOptions.defaults)));

const gpu = await gpuForTests();
const BATCH = 8;
async function gpuTask(stage: GpuStage): Promise<() => Promise<void>> {
  const runner = new GpuFrameRunner(gpu!, [stage], { depth: 3 });
  await runner.init(ref.format);
  let index = 0;
  let collector = new FeatureCollector();
  return async () => {
    if (index > 10000) {
      index = 0;
      collector = new FeatureCollector();
    }
    for (let i = 0; i < BATCH; i++) await runner.submit({ ref, dist }, index++, collector);
    await runner.flush(collector);
  };
}
if (gpu) {
  bench.add(`float_ssim gpu 1080p (${BATCH} frames, upload to readback)`, await gpuTask(new FloatSsimGpu(floatSsimOptions.defaults)));
  bench.add(`float_ms_ssim gpu 1080p (${BATCH} frames, upload to readback)`, await gpuTask(new FloatMsSsimGpu(floatMsSsimOptions.defaults)));
}

await bench.run();

/** GPU time per kernel (timestamp queries), averaged over one batch, when the adapter has them. */
async function kernelTimes(stage: GpuStage): Promise<string[]> {
  const runner = new GpuFrameRunner(gpu!, [stage], { depth: 3, profile: true });
  await runner.init(ref.format);
  const collector = new FeatureCollector();
  for (let i = 0; i < BATCH; i++) await runner.submit({ ref, dist }, i, collector);
  await runner.flush(collector);
  await runner.close();
  return [...runner.gpuTimeNs].map(([label, ns]) => `  ${label}: ${(ns / BATCH / 1e6).toFixed(3)} ms/frame`);
}
const profiles: string[] = [];
if (gpu?.hasTimestamps) {
  profiles.push("GPU time per kernel:", ...(await kernelTimes(new FloatSsimGpu(floatSsimOptions.defaults))), ...(await kernelTimes(new FloatMsSsimGpu(floatMsSsimOptions.defaults))));
}
console.log(`device: ${gpu?.description ?? "no GPU adapter"}`);
console.table(
  bench.tasks.map((t) => {
    const r = t.result as { latency?: { mean: number; samplesCount: number }; period?: number } | undefined;
    const ms = r?.latency?.mean ?? r?.period ?? NaN;
    const frames = t.name.includes("gpu") ? BATCH : 1;
    return { task: t.name, "ms/iteration": ms.toFixed(3), fps: ((frames * 1000) / ms).toFixed(2), samples: r?.latency?.samplesCount ?? 0 };
  }),
);
console.log(profiles.join("\n"));
process.exit(0);
