// tinybench: integer vif on the GPU, end to end through GpuFrameRunner (upload of both
// frames, the seven kernels, one readback per frame), batches of 8 pipelined frames per
// iteration; then the GPU time of each kernel (timestamp queries) per frame.
import { Bench } from "tinybench";
import { GpuFrameRunner } from "@vq/gpu-core";
import { gpuForTests, passTimesPerFrame } from "@vq/gpu-core/testing";
import { firstFrame, gpuBatchTask, msPerIteration } from "../../../tools/bench-tasks.ts";
import { vifOptions } from "../src/definition.ts";
import { VifGpu } from "../src/gpu/vif-gpu.ts";

const gpu = await gpuForTests();
if (!gpu) {
  console.log("no GPU adapter: nothing to measure");
  process.exit(0);
}
const INPUTS = [
  { name: "1920x1080 8-bit", ref: "vectors/nat_1920x1080.ref.y4m", dist: "vectors/nat_1920x1080.x264crf35.y4m" },
  { name: "960x540 10-bit", ref: "vectors/grad_960x540_10b.ref.y4m", dist: "vectors/grad_960x540_10b.q8bit.y4m" },
];
const BATCH = 8;
const options = vifOptions.defaults;
// at least `iterations` runs (tinybench's default of 64 would take an hour on lavapipe)
const bench = new Bench({ time: Number(process.env.VQ_BENCH_MS ?? 3000), iterations: Number(process.env.VQ_BENCH_ITERATIONS ?? 5), warmupIterations: 2 });
const profiles: { input: string; kernel: string; ms: number }[] = [];

for (const input of INPUTS) {
  const ref = await firstFrame(input.ref);
  const dist = await firstFrame(input.dist);
  const runner = new GpuFrameRunner(gpu, [new VifGpu(options)], { depth: 3 });
  await runner.init(ref.format);
  bench.add(`vif gpu ${input.name} (${BATCH} frames, upload to readback)`, gpuBatchTask(runner, () => ({ ref, dist }), BATCH));

  if (gpu.hasTimestamps) {
    const frames = Number(process.env.VQ_BENCH_PROFILE_FRAMES ?? 32);
    for (const [kernel, ms] of await passTimesPerFrame(gpu, [new VifGpu(options)], { ref, dist }, frames)) profiles.push({ input: input.name, kernel, ms });
  }
}

await bench.run();
console.log(`device: ${gpu.description}`);
console.table(
  bench.tasks.map((t) => {
    const ms = msPerIteration(t);
    return { task: t.name, "ms/iteration": ms.toFixed(3), "ms/frame": (ms / BATCH).toFixed(3), fps: ((BATCH * 1000) / ms).toFixed(1) };
  }),
);
if (profiles.length) console.table(profiles.map((p) => ({ input: p.input, kernel: p.kernel, "GPU ms/frame": p.ms.toFixed(3) })));
process.exit(0);
