// tinybench: PSNR at 1080p on the CPU (one frame pair per iteration) and on the GPU
// (a batch of 8 pipelined frames per iteration: upload, kernel, one readback per frame);
// the float statistics float_psnr, float_ansnr and float_moment on the CPU.
import { Bench } from "tinybench";
import { FeatureCollector, Y4mReader, type FeatureExtractor, type Picture } from "@vq/core";
import { goldenPath } from "@vq/core/golden";
import { GpuFrameRunner } from "@vq/gpu-core";
import { gpuForTests } from "@vq/gpu-core/testing";
import { psnrOptions } from "../src/definition.ts";
import { PsnrCpu } from "../src/psnr-cpu.ts";
import { PsnrGpu } from "../src/psnr-gpu.ts";
import { FloatAnsnrCpu } from "../src/float-ansnr-cpu.ts";
import { FloatMomentCpu } from "../src/float-moment-cpu.ts";
import { FloatPsnrCpu } from "../src/float-psnr-cpu.ts";

async function firstFrame(path: string): Promise<Picture> {
  const r = await Y4mReader.open(goldenPath(path));
  const p = (await r.read())!;
  await r.close();
  return p;
}

const ref = await firstFrame("vectors/nat_1920x1080.ref.y4m");
const dist = await firstFrame("vectors/nat_1920x1080.x264crf35.y4m");
const options = psnrOptions.defaults;
const bench = new Bench({ time: 2000, warmup: true });

const cpu = new PsnrCpu(options);
cpu.init(ref.format);
let cpuIndex = 0;
let cpuCollector = new FeatureCollector();
bench.add("psnr cpu 1080p (1 frame)", () => {
  if (cpuIndex > 10000) {
    cpuIndex = 0;
    cpuCollector = new FeatureCollector();
  }
  cpu.extract({ ref, dist }, cpuIndex++, cpuCollector);
});

for (const extractor of [new FloatPsnrCpu(), new FloatAnsnrCpu(), new FloatMomentCpu()] as FeatureExtractor[]) {
  extractor.init(ref.format);
  let index = 0;
  let collector = new FeatureCollector();
  bench.add(`${extractor.definition.name} cpu 1080p (1 frame)`, () => {
    if (index > 10000) {
      index = 0;
      collector = new FeatureCollector();
    }
    extractor.extract({ ref, dist }, index++, collector);
  });
}

const gpu = await gpuForTests();
const BATCH = 8;
if (gpu) {
  const runner = new GpuFrameRunner(gpu, [new PsnrGpu(options)], { depth: 3 });
  await runner.init(ref.format);
  let index = 0;
  let collector = new FeatureCollector();
  bench.add(`psnr gpu 1080p (${BATCH} frames, upload to readback)`, async () => {
    if (index > 10000) {
      index = 0;
      collector = new FeatureCollector();
    }
    for (let i = 0; i < BATCH; i++) await runner.submit({ ref, dist }, index++, collector);
    await runner.flush(collector);
  });
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
