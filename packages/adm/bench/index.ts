/**
 * Microbenchmark: integer adm (and float_adm) on one 1080p frame pair of the golden set
 * (nat_1920x1080, first frame of the reference and of the x264 crf 35 version), on the
 * CPU (one frame pair per iteration; the TypeScript reference and the WebAssembly SIMD
 * kernels, ADR 0040) and, where a WebGPU adapter exists, on the GPU (8
 * frames through GpuFrameRunner per iteration, a flush after them: upload, the batch's
 * kernels and readback), then a per-kernel breakdown from GPU timestamps. `bun run bench/index.ts` (or the package's `bench` script).
 */
import { FeatureCollector, kernelsModule, Y4mReader, type Picture } from "@vq/core";
import { goldenPath } from "@vq/core/golden";
import { GpuFrameRunner, type GpuStage } from "@vq/gpu-core";
import { gpuForTests } from "@vq/gpu-core/testing";
import { Bench } from "tinybench";
import { AdmCpu, AdmGpu, admOptions, AdmWasm, FloatAdmCpu, floatAdmOptions, FloatAdmWasm } from "../src/index.ts";
import { ADM_KERNELS_WASM } from "../src/cpu/wasm/adm-kernels.wasm.ts";
import { FLOAT_ADM_KERNELS_WASM } from "../src/float/wasm/float-adm-kernels.wasm.ts";

async function firstFrame(path: string): Promise<Picture> {
  const reader = await Y4mReader.open(goldenPath(path));
  const picture = await reader.read();
  if (!picture) throw new Error(`${path} has no frames`);
  return picture;
}

const ref = await firstFrame("vectors/nat_1920x1080.ref.y4m");
const dist = await firstFrame("vectors/nat_1920x1080.x264crf35.y4m");
const defaultOptions = admOptions.resolve({});
const v1Options = admOptions.resolve({ adm_csf_mode: 2, adm_dlm_weight: 0.7, adm_enhn_gain_limit: 1, adm_noise_weight: 0.02, adm_min_val: 0.5 });
const BATCH = 8;

const bench = new Bench({ name: "adm 1920x1080 8-bit", time: 5000, warmup: true });
// tinybench runs at least `iterations` (64 by default) and `time`: a software adapter
// (lavapipe) needs seconds per batch, so the GPU tasks ask for fewer
const gpuBench = new Bench({ name: "adm 1920x1080 8-bit, GPU", time: 2000, iterations: 4, warmupIterations: 1 });
if (!process.env.ADM_BENCH_GPU_ONLY) {
  const defaults = new AdmCpu(defaultOptions);
  defaults.init(ref.format);
  const v1 = new AdmCpu(v1Options);
  v1.init(ref.format);
  const module = kernelsModule("adm", ADM_KERNELS_WASM);
  if (!module) throw new Error("no WebAssembly SIMD here (or VQ_CPU_KERNELS=ts)");
  const defaultsWasm = new AdmWasm(defaultOptions, module);
  defaultsWasm.init(ref.format);
  const v1Wasm = new AdmWasm(v1Options, module);
  v1Wasm.init(ref.format);
  const floatAdm = new FloatAdmCpu(floatAdmOptions.resolve({}));
  floatAdm.init(ref.format);
  const floatModule = kernelsModule("float_adm", FLOAT_ADM_KERNELS_WASM)!;
  const floatAdmWasm = new FloatAdmWasm(floatAdmOptions.resolve({}), floatModule);
  floatAdmWasm.init(ref.format);
  let index = 0;
  bench.add("integer adm cpu (default options)", () => {
    defaults.extract({ ref, dist }, index++, new FeatureCollector());
  });
  bench.add("integer adm cpu (VMAF v1 3d0h options)", () => {
    v1.extract({ ref, dist }, index++, new FeatureCollector());
  });
  bench.add("integer adm cpu, WebAssembly SIMD (default options)", () => {
    defaultsWasm.extract({ ref, dist }, index++, new FeatureCollector());
  });
  bench.add("integer adm cpu, WebAssembly SIMD (VMAF v1 3d0h options)", () => {
    v1Wasm.extract({ ref, dist }, index++, new FeatureCollector());
  });
  bench.add("float_adm cpu (default options)", () => {
    floatAdm.extract({ ref, dist }, index++, new FeatureCollector());
  });
  bench.add("float_adm cpu, WebAssembly SIMD (default options)", () => {
    floatAdmWasm.extract({ ref, dist }, index++, new FeatureCollector());
  });
}

const gpu = await gpuForTests();

/** A runner with one adm stage, fed BATCH frames per call. */
async function gpuBatch(stage: GpuStage, profile = false) {
  const runner = new GpuFrameRunner(gpu!, [stage], { depth: 3, profile });
  await runner.init(ref.format);
  let index = 0;
  return {
    runner,
    async run() {
      const collector = new FeatureCollector();
      for (let i = 0; i < BATCH; i++) await runner.submit({ ref, dist }, index++, collector);
      await runner.flush(collector);
    },
  };
}

if (gpu) {
  const defaults = await gpuBatch(new AdmGpu(defaultOptions));
  const v1 = await gpuBatch(new AdmGpu(v1Options));
  await defaults.run(); // compiles the kernels outside the measurement
  gpuBench.add(`integer adm gpu (default options, ${BATCH} frames)`, () => defaults.run());
  gpuBench.add(`integer adm gpu (VMAF v1 3d0h options, ${BATCH} frames)`, () => v1.run());
}

await bench.run();
await gpuBench.run();
console.log(`${bench.name}; device: ${gpu?.description ?? "no GPU adapter"}`);
console.table(
  [...bench.tasks, ...gpuBench.tasks].map((t) => {
    const r = t.result as { state?: string; latency?: { p50: number; min: number } } | undefined;
    const frames = t.name.includes("gpu") ? BATCH : 1;
    const p50 = r?.latency?.p50 ?? NaN;
    return { task: t.name, "median ms/frame": (p50 / frames).toFixed(2), fps: ((frames * 1000) / p50).toFixed(1), "min ms/frame": ((r?.latency?.min ?? NaN) / frames).toFixed(2) };
  }),
);

if (gpu?.hasTimestamps) {
  // where the GPU time goes: summed per kernel over one profiled batch
  const profiled = await gpuBatch(new AdmGpu(defaultOptions), true);
  await profiled.run();
  profiled.runner.gpuTimeNs.clear();
  await profiled.run();
  const rows = [...profiled.runner.gpuTimeNs].map(([pass, ns]) => ({ pass, "ms/frame": (ns / 1e6 / BATCH).toFixed(3) }));
  const total = [...profiled.runner.gpuTimeNs.values()].reduce((a, b) => a + b, 0) / 1e6 / BATCH;
  console.table([...rows, { pass: "all kernels", "ms/frame": total.toFixed(3) }]);
}
process.exit(0);
