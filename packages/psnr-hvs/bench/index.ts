// tinybench: psnr_hvs at 1080p. CPU: one frame pair per iteration, the TypeScript reference
// and the WebAssembly SIMD kernels (where they run). GPU: batches of 8
// pipelined frames (upload, both kernels, one readback per frame). Then, on GPUs with
// timestamps, the mean GPU time of each kernel and how many blocks the float sum had to
// walk term by term.
import { Bench } from "tinybench";
import { FeatureCollector } from "@vq/core";
import { GpuFrameRunner } from "@vq/gpu-core";
import { gpuForTests } from "@vq/gpu-core/testing";
import { cpuFrameTask, firstFrames, GOLDEN_1080P, gpuBatchTask, printFrameRates } from "../../../tools/bench-tasks.ts";
import { psnrHvsOptions } from "../src/definition.ts";
import { PsnrHvsCpu } from "../src/psnr-hvs-cpu.ts";
import { PsnrHvsGpu } from "../src/psnr-hvs-gpu.ts";
import { psnrHvsKernelsModule, PsnrHvsWasm } from "../src/psnr-hvs-wasm.ts";
import { psnrHvsGpuLayout } from "../src/psnr-hvs-gpu-layout.ts";

const FRAMES = 5;
const refs = await firstFrames(GOLDEN_1080P.ref, FRAMES);
const dists = await firstFrames(GOLDEN_1080P.dist, FRAMES);
const pairAt = (i: number) => ({ ref: refs[i % FRAMES]!, dist: dists[i % FRAMES]! });
const format = refs[0]!.format;
const bench = new Bench({ time: Number(process.env.BENCH_TIME_MS ?? 4000), warmup: true });
const BATCH = 8;

bench.add("psnr_hvs cpu 1080p (1 frame)", cpuFrameTask(new PsnrHvsCpu(psnrHvsOptions.defaults), () => pairAt(0)));
const kernels = psnrHvsKernelsModule();
if (kernels) bench.add("psnr_hvs cpu, WebAssembly SIMD, 1080p (1 frame)", cpuFrameTask(new PsnrHvsWasm(psnrHvsOptions.defaults, kernels), () => pairAt(0)));

const gpu = process.env.BENCH_CPU_ONLY ? null : await gpuForTests();
if (gpu) {
  const runner = new GpuFrameRunner(gpu, [new PsnrHvsGpu(psnrHvsOptions.defaults)], { depth: 3 });
  await runner.init(format);
  bench.add(`psnr_hvs gpu 1080p (${BATCH} frames, upload to readback)`, gpuBatchTask(runner, pairAt, BATCH));
}

await bench.run();
printFrameRates(bench, gpu?.description, BATCH);

// GPU time per kernel, jumping groups (as shipped) and summing every term one by one.
for (const jumpGroups of gpu ? [true, false] : []) {
  const profiled = new PsnrHvsGpu(psnrHvsOptions.defaults, { jumpGroups });
  const runner = new GpuFrameRunner(gpu!, [profiled], { depth: 3, profile: true });
  await runner.init(format);
  const collector = new FeatureCollector();
  const n = Number(process.env.BENCH_PROFILE_FRAMES ?? 40);
  for (let i = 0; i < n; i++) await runner.submit(pairAt(i), i, collector);
  await runner.flush(collector);
  const mode = jumpGroups ? "jumping groups" : "term by term";
  for (const [label, ns] of runner.gpuTimeNs) console.log(`${mode}: ${label}: ${(ns / n / 1000).toFixed(1)} µs per frame`);
  console.log(`${mode}: blocks summed term by term: ${(profiled.termByTermBlocks / n).toFixed(1)} of ${psnrHvsGpuLayout(format).terms / 64} per frame`);
  await runner.close();
}
process.exit(0);
