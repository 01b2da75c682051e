// tinybench: SpEED at 1080p (the nat_1920x1080 golden pair, its first two frames taken in
// turn so speed_temporal sees real differences). CPU (TypeScript and WebAssembly kernels): one frame per iteration; GPU: a batch
// of 8 pipelined frames per iteration (upload, kernels, one readback per frame).
import { Bench } from "tinybench";
import { GpuFrameRunner, type GpuStage } from "@vq/gpu-core";
import { gpuForTests } from "@vq/gpu-core/testing";
import { cpuFrameTask, firstFrames, GOLDEN_1080P, gpuBatchTask, printFrameRates } from "../../../tools/bench-tasks.ts";
import { speedChromaOptions, speedTemporalOptions } from "../src/definition.ts";
import { SpeedChromaCpu } from "../src/cpu/speed-chroma-cpu.ts";
import { SpeedChromaGpu } from "../src/gpu/speed-chroma-gpu.ts";
import { SpeedTemporalCpu } from "../src/cpu/speed-temporal-cpu.ts";
import { SpeedTemporalGpu } from "../src/gpu/speed-temporal-gpu.ts";
import { SpeedChromaWasm } from "../src/cpu/speed-chroma-wasm.ts";
import { SpeedTemporalWasm } from "../src/cpu/speed-temporal-wasm.ts";
import { speedKernelsModule } from "../src/cpu/speed-wasm-passes.ts";

const refs = await firstFrames(GOLDEN_1080P.ref, 2);
const dists = await firstFrames(GOLDEN_1080P.dist, 2);
const pair = (i: number) => ({ ref: refs[i % 2]!, dist: dists[i % 2]! });
const format = refs[0]!.format;
const bench = new Bench({ time: 2000, warmup: true });

// the TypeScript reference and, where they run, the WebAssembly SIMD kernels (ADR 0040)
const module = speedKernelsModule();
for (const [name, extractor] of [
  ["speed_chroma", new SpeedChromaCpu(speedChromaOptions.defaults)],
  ["speed_temporal", new SpeedTemporalCpu(speedTemporalOptions.defaults)],
  ...(module
    ? ([
        ["speed_chroma wasm", new SpeedChromaWasm(speedChromaOptions.defaults, module)],
        ["speed_temporal wasm", new SpeedTemporalWasm(speedTemporalOptions.defaults, module)],
      ] as const)
    : []),
] as const) {
  bench.add(`${name} cpu 1080p (1 frame)`, cpuFrameTask(extractor, pair));
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
    bench.add(`${name} gpu 1080p (${BATCH} frames, upload to readback)`, gpuBatchTask(runner, pair, BATCH));
  }
}

await bench.run();
printFrameRates(bench, gpu?.description, BATCH);
process.exit(0);
