// tinybench: ciede at 1080p. CPU: one iteration scores the whole 5-frame golden 1080p
// pair with a fresh extractor, so the exact caches (Lab colours, ΔE of colour pairs)
// start empty and carry over between frames as they do in a real run; repeating one
// frame would let the caches answer everything. GPU: batches of 8 pipelined frames
// (upload, kernel, one readback per frame), no caches involved.
import { Bench } from "tinybench";
import { FeatureCollector, Y4mReader, type Picture } from "@vq/core";
import { goldenPath } from "@vq/core/golden";
import { GpuFrameRunner } from "@vq/gpu-core";
import { gpuForTests } from "@vq/gpu-core/testing";
import { ciedeOptions } from "../src/definition.ts";
import { CiedeCpu } from "../src/ciede-cpu.ts";
import { CiedeGpu } from "../src/ciede-gpu.ts";

async function frames(path: string): Promise<Picture[]> {
  const r = await Y4mReader.open(goldenPath(path));
  const out: Picture[] = [];
  for (let p = await r.read(); p; p = await r.read()) out.push(p);
  await r.close();
  return out;
}

const refs = await frames("vectors/nat_1920x1080.ref.y4m");
const dists = await frames("vectors/nat_1920x1080.x264crf35.y4m");
const bench = new Bench({ time: Number(process.env.BENCH_TIME_MS ?? 10000), iterations: 2, warmup: true, warmupIterations: 1 });
const BATCH = 8;
const framesPer: Record<string, number> = {};

const cpuTask = `ciede cpu 1080p (${refs.length}-frame run)`;
framesPer[cpuTask] = refs.length;
bench.add(cpuTask, () => {
  const cpu = new CiedeCpu(ciedeOptions.defaults);
  cpu.init(refs[0]!.format);
  const collector = new FeatureCollector();
  for (let i = 0; i < refs.length; i++) cpu.extract({ ref: refs[i]!, dist: dists[i]! }, i, collector);
});

const gpu = process.env.BENCH_CPU_ONLY ? null : await gpuForTests();
if (gpu) {
  const runner = new GpuFrameRunner(gpu, [new CiedeGpu(ciedeOptions.defaults)], { depth: 3 });
  await runner.init(refs[0]!.format);
  let index = 0;
  let collector = new FeatureCollector();
  const gpuTask = `ciede gpu 1080p (${BATCH} frames, upload to readback)`;
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
process.exit(0);
