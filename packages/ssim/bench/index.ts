// tinybench: float_ssim and float_ms_ssim at 1080p (nat_1920x1080 golden pair) on the CPU
// (one frame pair per iteration) and on the GPU (a batch of 8 pipelined frames per
// iteration: upload, kernels, one readback per frame, a flush per batch).
import { Bench } from "tinybench";
import { FeatureCollector, kernelsModule, type FeatureExtractor } from "@vq/core";
import { GpuFrameRunner, type GpuStage } from "@vq/gpu-core";
import { gpuForTests } from "@vq/gpu-core/testing";
import { cpuFrameTask, firstFrame, GOLDEN_1080P, gpuBatchTask, msPerIteration } from "../../../tools/bench-tasks.ts";
import { floatMsSsimOptions } from "../src/float-ms-ssim-definition.ts";
import { FloatMsSsimCpu } from "../src/cpu/float-ms-ssim-cpu.ts";
import { FloatMsSsimGpu } from "../src/gpu/float-ms-ssim-gpu.ts";
import { floatSsimOptions } from "../src/float-ssim-definition.ts";
import { FloatSsimCpu } from "../src/cpu/float-ssim-cpu.ts";
import { FloatSsimGpu } from "../src/gpu/float-ssim-gpu.ts";
import { FloatMsSsimWasm } from "../src/cpu/float-ms-ssim-wasm.ts";
import { FloatSsimWasm } from "../src/cpu/float-ssim-wasm.ts";
import { SSIM_KERNELS_WASM } from "../src/cpu/wasm/ssim-kernels.wasm.ts";

const ref = await firstFrame(GOLDEN_1080P.ref);
const dist = await firstFrame(GOLDEN_1080P.dist);
const pair = () => ({ ref, dist });
// at least 3 iterations and 3 s per task: lavapipe needs seconds per GPU batch at 1080p
const bench = new Bench({ time: 3000, iterations: 3, warmupTime: 500, warmupIterations: 1 });

const cpuTask = (extractor: FeatureExtractor) => cpuFrameTask(extractor, pair);

bench.add("float_ssim cpu 1080p (1 frame, TypeScript)", cpuTask(new FloatSsimCpu(floatSsimOptions.defaults)));
bench.add("float_ms_ssim cpu 1080p (1 frame, TypeScript)", cpuTask(new FloatMsSsimCpu(floatMsSsimOptions.defaults)));
// the WebAssembly SIMD kernels (ADR 0040), unless VQ_CPU_KERNELS=ts or the runtime has no SIMD
const module = kernelsModule("ssim", SSIM_KERNELS_WASM);
if (module) {
  bench.add("float_ssim cpu 1080p (1 frame, WebAssembly SIMD)", cpuTask(new FloatSsimWasm(floatSsimOptions.defaults, module)));
  bench.add("float_ms_ssim cpu 1080p (1 frame, WebAssembly SIMD)", cpuTask(new FloatMsSsimWasm(floatMsSsimOptions.defaults, module)));
}

const gpu = await gpuForTests();
const BATCH = 8;
async function gpuTask(stage: GpuStage): Promise<() => Promise<void>> {
  const runner = new GpuFrameRunner(gpu!, [stage], { depth: 3 });
  await runner.init(ref.format);
  return gpuBatchTask(runner, pair, BATCH);
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
    const r = t.result as { latency?: { samplesCount: number } } | undefined;
    const ms = msPerIteration(t);
    const frames = t.name.includes("gpu") ? BATCH : 1;
    return { task: t.name, "ms/iteration": ms.toFixed(3), fps: ((frames * 1000) / ms).toFixed(2), samples: r?.latency?.samplesCount ?? 0 };
  }),
);
console.log(profiles.join("\n"));
process.exit(0);
