// tinybench: cambi on the GPU, end to end through GpuFrameRunner (upload of both frames,
// every pass, one readback per frame), batches of 8 pipelined frames per iteration, at
// 1080p (golden nat_1920x1080, first frame pair) and at 4K (the same frames upscaled 2x,
// nearest neighbour, and tiled 2x2); then the GPU time of each pass (timestamp queries)
// per frame (the replay of libvmaf's top-k pooling is the pass "cambi top-k replay"), how many
// picture scales the GPU replayed and how many frames were still scored on the CPU.
// VQ_BENCH_INPUTS=1080p,4k,4k-tiled limits the inputs.
import { Bench } from "tinybench";
import { Picture } from "@vq/core";
import { GpuFrameRunner } from "@vq/gpu-core";
import { gpuForTests, passTimesPerFrame } from "@vq/gpu-core/testing";
import { firstFrame, GOLDEN_1080P, gpuBatchTask, msPerIteration } from "../../../tools/bench-tasks.ts";
import { CambiGpu } from "../src/gpu/cambi-gpu.ts";
import { cambiOptions, type CambiOptions } from "../src/definition.ts";

/** `p` tiled 2x2 (every plane). */
function tile2x2(p: Picture): Picture {
  const out = Picture.allocate({ ...p.format, width: 2 * p.width, height: 2 * p.height });
  out.planes.forEach((plane, i) => {
    const src = p.planes[i]!;
    for (let y = 0; y < plane.height; y++) {
      for (let x = 0; x < plane.width; x++) plane.data[y * plane.stride + x] = src.data[(y % src.height) * src.stride + (x % src.width)]!;
    }
  });
  return out;
}

/** `p` upscaled 2x by repeating samples (every plane). */
function upscale2x(p: Picture): Picture {
  const out = Picture.allocate({ ...p.format, width: 2 * p.width, height: 2 * p.height });
  out.planes.forEach((plane, i) => {
    const src = p.planes[i]!;
    for (let y = 0; y < plane.height; y++) {
      for (let x = 0; x < plane.width; x++) plane.data[y * plane.stride + x] = src.data[(y >> 1) * src.stride + (x >> 1)]!;
    }
  });
  return out;
}

const gpu = await gpuForTests();
if (!gpu) {
  console.log("no GPU adapter: nothing to measure");
  process.exit(0);
}
const ref1080 = await firstFrame(GOLDEN_1080P.ref);
const dist1080 = await firstFrame(GOLDEN_1080P.dist);
const wanted = (process.env.VQ_BENCH_INPUTS ?? "1080p,4k,4k-tiled").split(",");
const INPUTS = [
  { name: "1080p", ref: ref1080, dist: dist1080 },
  { name: "4k", ref: upscale2x(ref1080), dist: upscale2x(dist1080) },
  { name: "4k-tiled", ref: tile2x2(ref1080), dist: tile2x2(dist1080) },
].filter((i) => wanted.includes(i.name));
const OPTION_SETS: { name: string; options: Partial<CambiOptions> }[] = [
  { name: "default", options: {} },
  { name: "full_ref", options: { full_ref: true } },
  { name: "v1 (hrs 1080, cmxv 17, vlt 0.06)", options: { cambi_high_res_speedup: 1080, cambi_max_val: 17, cambi_vis_lum_threshold: 0.06 } },
];
const BATCH = 8;
const bench = new Bench({ time: Number(process.env.VQ_BENCH_MS ?? 3000), iterations: Number(process.env.VQ_BENCH_ITERATIONS ?? 5), warmupIterations: 2 });
const profiles: { input: string; pass: string; ms: number }[] = [];
const stages = new Map<string, CambiGpu>();

for (const input of INPUTS) {
  const { ref, dist } = input;
  for (const set of OPTION_SETS) {
    const options = cambiOptions.resolve(set.options);
    const stage = new CambiGpu(options);
    const runner = new GpuFrameRunner(gpu, [stage], { depth: 3 });
    await runner.init(ref.format);
    const name = `cambi gpu ${input.name} ${set.name}`;
    stages.set(name, stage);
    bench.add(name, gpuBatchTask(runner, () => ({ ref, dist }), BATCH));
  }
  if (gpu.hasTimestamps) {
    const frames = Number(process.env.VQ_BENCH_PROFILE_FRAMES ?? 32);
    for (const [pass, ms] of await passTimesPerFrame(gpu, [new CambiGpu(cambiOptions.defaults)], { ref, dist }, frames)) profiles.push({ input: input.name, pass, ms });
  }
}

await bench.run();
console.log(`device: ${gpu.description}`);
console.table(
  bench.tasks.map((t) => {
    const ms = msPerIteration(t);
    return { task: t.name, "ms/iteration": ms.toFixed(3), "ms/frame": (ms / BATCH).toFixed(3), fps: ((BATCH * 1000) / ms).toFixed(1), "replayed on CPU": stages.get(t.name)?.replayedFrames ?? 0, "scales replayed on GPU": stages.get(t.name)?.gpuReplayedScales ?? 0 };
  }),
);
if (profiles.length) {
  console.table(profiles.map((p) => ({ input: p.input, pass: p.pass, "GPU ms/frame": p.ms.toFixed(3) })));
  for (const input of INPUTS) {
    const total = profiles.filter((p) => p.input === input.name).reduce((s, p) => s + p.ms, 0);
    console.log(`${input.name}: sum of pass GPU times ${total.toFixed(3)} ms/frame`);
  }
}
process.exit(0);
