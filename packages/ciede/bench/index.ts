// tinybench: ciede at 1080p. CPU: one iteration scores the whole 5-frame golden 1080p
// pair with a fresh extractor, so the exact caches (Lab colours, ΔE of colour pairs)
// start empty and carry over between frames as they do in a real run; repeating one
// frame would let the caches answer everything. GPU: batches of 8 pipelined frames
// (upload, kernel, one readback per frame), no caches involved.
import { Bench } from "tinybench";
import { FeatureCollector } from "@vq/core";
import { GpuFrameRunner } from "@vq/gpu-core";
import { gpuForTests } from "@vq/gpu-core/testing";
import { firstFrames, GOLDEN_1080P, gpuBatchTask, msPerIteration } from "../../../tools/bench-tasks.ts";
import { ciedeOptions } from "../src/definition.ts";
import { CiedeCpu } from "../src/cpu/ciede-cpu.ts";
import { CiedeGpu } from "../src/gpu/ciede-gpu.ts";

const FRAMES = 5;
const refs = await firstFrames(GOLDEN_1080P.ref, FRAMES);
const dists = await firstFrames(GOLDEN_1080P.dist, FRAMES);
const pairAt = (i: number) => ({ ref: refs[i % FRAMES]!, dist: dists[i % FRAMES]! });
const bench = new Bench({ time: Number(process.env.BENCH_TIME_MS ?? 10000), iterations: 2, warmup: true, warmupIterations: 1 });
const BATCH = 8;
const framesPer: Record<string, number> = {};

const cpuTask = `ciede cpu 1080p (${FRAMES}-frame run)`;
framesPer[cpuTask] = FRAMES;
bench.add(cpuTask, () => {
  const cpu = new CiedeCpu(ciedeOptions.defaults);
  cpu.init(refs[0]!.format);
  const collector = new FeatureCollector();
  for (let i = 0; i < FRAMES; i++) cpu.extract(pairAt(i), i, collector);
});

const gpu = process.env.BENCH_CPU_ONLY ? null : await gpuForTests();
if (gpu) {
  const runner = new GpuFrameRunner(gpu, [new CiedeGpu(ciedeOptions.defaults)], { depth: 3 });
  await runner.init(refs[0]!.format);
  const gpuTask = `ciede gpu 1080p (${BATCH} frames, upload to readback)`;
  framesPer[gpuTask] = BATCH;
  bench.add(gpuTask, gpuBatchTask(runner, pairAt, BATCH));
}

await bench.run();
console.log(`device: ${gpu?.description ?? "no GPU adapter"}`);
console.table(
  bench.tasks.map((t) => {
    const ms = msPerIteration(t);
    return { task: t.name, "ms/iteration": ms.toFixed(1), fps: ((framesPer[t.name]! * 1000) / ms).toFixed(2) };
  }),
);
process.exit(0);
