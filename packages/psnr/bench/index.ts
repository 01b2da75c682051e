// tinybench: PSNR at 1080p on the CPU (one frame pair per iteration) and on the GPU
// (a batch of 8 pipelined frames per iteration: upload, kernel, one readback per frame);
// the float statistics float_psnr, float_ansnr and float_moment on the CPU.
import { Bench } from "tinybench";
import type { FeatureExtractor } from "@vq/core";
import { GpuFrameRunner } from "@vq/gpu-core";
import { gpuForTests } from "@vq/gpu-core/testing";
import { cpuFrameTask, firstFrame, GOLDEN_1080P, gpuBatchTask, printFrameRates } from "../../../tools/bench-tasks.ts";
import { psnrOptions } from "../src/definition.ts";
import { PsnrCpu } from "../src/psnr-cpu.ts";
import { PsnrGpu } from "../src/psnr-gpu.ts";
import { FloatAnsnrCpu } from "../src/float-ansnr-cpu.ts";
import { FloatMomentCpu } from "../src/float-moment-cpu.ts";
import { FloatPsnrCpu } from "../src/float-psnr-cpu.ts";

const ref = await firstFrame(GOLDEN_1080P.ref);
const dist = await firstFrame(GOLDEN_1080P.dist);
const pair = () => ({ ref, dist });
const options = psnrOptions.defaults;
const bench = new Bench({ time: 2000, warmup: true });

bench.add("psnr cpu 1080p (1 frame)", cpuFrameTask(new PsnrCpu(options), pair));
for (const extractor of [new FloatPsnrCpu(), new FloatAnsnrCpu(), new FloatMomentCpu()] as FeatureExtractor[]) {
  bench.add(`${extractor.definition.name} cpu 1080p (1 frame)`, cpuFrameTask(extractor, pair));
}

const gpu = await gpuForTests();
const BATCH = 8;
if (gpu) {
  const runner = new GpuFrameRunner(gpu, [new PsnrGpu(options)], { depth: 3 });
  await runner.init(ref.format);
  bench.add(`psnr gpu 1080p (${BATCH} frames, upload to readback)`, gpuBatchTask(runner, pair, BATCH));
}

await bench.run();
printFrameRates(bench, gpu?.description, BATCH);
process.exit(0);
