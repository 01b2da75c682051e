// tinybench: psnr_hvs at 1080p. CPU: one frame pair per iteration. GPU: batches of 8
// pipelined frames (upload, both kernels, one readback per frame). Then, on GPUs with
// timestamps, the mean GPU time of each kernel and how many blocks the float sum had to
// walk term by term.
import { Bench } from "tinybench";
import { FeatureCollector, Y4mReader, type Picture } from "@vq/core";
import { goldenPath } from "@vq/core/golden";
import { GpuFrameRunner } from "@vq/gpu-core";
import { gpuForTests } from "@vq/gpu-core/testing";
import { psnrHvsOptions } from "../src/definition.ts";
import { PsnrHvsCpu } from "../src/psnr-hvs-cpu.ts";
import { PsnrHvsGpu } from "../src/psnr-hvs-gpu.ts";
import { psnrHvsGpuLayout } from "../src/psnr-hvs-gpu-layout.ts";

async function frames(path: string): Promise<Picture[]> {
  const r = await Y4mReader.open(goldenPath(path));
  const out: Picture[] = [];
  for (let p = await r.read(); p; p = await r.read()) out.push(p);
  await r.close();
  return out;
}

const refs = await frames("vectors/nat_1920x1080.ref.y4m");
const dists = await frames("vectors/nat_1920x1080.x264crf35.y4m");
const format = refs[0]!.format;
const bench = new Bench({ time: Number(process.env.BENCH_TIME_MS ?? 4000), warmup: true });
const BATCH = 8;
const framesPer: Record<string, number> = {};

const cpu = new PsnrHvsCpu(psnrHvsOptions.defaults);
cpu.init(format);
let cpuIndex = 0;
let cpuCollector = new FeatureCollector();
const cpuTask = "psnr_hvs cpu 1080p (1 frame)";
framesPer[cpuTask] = 1;
bench.add(cpuTask, () => {
  if (cpuIndex > 10000) {
    cpuIndex = 0;
    cpuCollector = new FeatureCollector();
  }
  cpu.extract({ ref: refs[0]!, dist: dists[0]! }, cpuIndex++, cpuCollector);
});

const gpu = process.env.BENCH_CPU_ONLY ? null : await gpuForTests();
const stage = new PsnrHvsGpu(psnrHvsOptions.defaults);
if (gpu) {
  const runner = new GpuFrameRunner(gpu, [stage], { depth: 3 });
  await runner.init(format);
  let index = 0;
  let collector = new FeatureCollector();
  const gpuTask = `psnr_hvs gpu 1080p (${BATCH} frames, upload to readback)`;
  framesPer[gpuTask] = BATCH;
  bench.add(gpuTask, async () => {
    if (index > 10000) {
      index = 0;
      collector = new FeatureCollector();
    }
    for (let i = 0; i < BATCH; i++) await runner.submit({ ref: refs[i % refs.length]!, dist: dists[i % refs.length]! }, index++, collector);
    await runner.flush(collector);
  });
}

await bench.run();
console.log(`device: ${gpu?.description ?? "no GPU adapter"}`);
console.table(
  bench.tasks.map((t) => {
    const r = t.result as { latency?: { mean: number }; period?: number } | undefined;
    const ms = r?.latency?.mean ?? r?.period ?? NaN;
    return { task: t.name, "ms/iteration": ms.toFixed(1), fps: ((framesPer[t.name]! * 1000) / ms).toFixed(2) };
  }),
);

// GPU time per kernel, jumping groups (as shipped) and summing every term one by one.
for (const jumpGroups of gpu ? [true, false] : []) {
  const profiled = new PsnrHvsGpu(psnrHvsOptions.defaults, { jumpGroups });
  const runner = new GpuFrameRunner(gpu!, [profiled], { depth: 3, profile: true });
  await runner.init(format);
  const collector = new FeatureCollector();
  const n = Number(process.env.BENCH_PROFILE_FRAMES ?? 40);
  for (let i = 0; i < n; i++) await runner.submit({ ref: refs[i % refs.length]!, dist: dists[i % refs.length]! }, i, collector);
  await runner.flush(collector);
  const mode = jumpGroups ? "jumping groups" : "term by term";
  for (const [label, ns] of runner.gpuTimeNs) console.log(`${mode}: ${label}: ${(ns / n / 1000).toFixed(1)} µs per frame`);
  console.log(`${mode}: blocks summed term by term: ${(profiled.termByTermBlocks / n).toFixed(1)} of ${psnrHvsGpuLayout(format).terms / 64} per frame`);
  await runner.close();
}
process.exit(0);
