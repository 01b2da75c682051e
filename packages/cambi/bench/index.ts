// tinybench: cambi at 1080p (golden nat_1920x1080, first frame pair) on the CPU, one frame
// per iteration: the whole extractor with default options, full_ref and the VMAF v1
// models' options, on the TypeScript reference and on the WebAssembly SIMD kernels (ADR
// 0040), then each pass on its own; then frames per second through vq's
// scoring pipeline on one thread and on two worker threads (frames spread round-robin), with
// the kernels the catalogue selects (VQ_CPU_KERNELS=ts: the TypeScript reference).
import { Bench } from "tinybench";
import { CpuBackend, Picture, scoreVideos, ThreadedCpuBackend, type VideoReader } from "@vq/core";
import { cpuFrameTask, firstFrame, GOLDEN_1080P, msPerIteration } from "../../../tools/bench-tasks.ts";
import { planCambi, NUM_SCALES } from "../src/numerics/cambi-plan.ts";
import { CambiCpu } from "../src/cpu/cambi-cpu.ts";
import { CambiWasm, wasmWorkspace } from "../src/cpu/cambi-wasm.ts";
import { CAMBI_KERNELS_WASM } from "../src/cpu/wasm/cambi-kernels.wasm.ts";
import { CValues } from "../src/cpu/c-values.ts";
import { cambiOptions, type CambiOptions } from "../src/definition.ts";
import { cambiFeature } from "../src/index.ts";
import { MaskSpans } from "../src/cpu/mask-spans.ts";
import { ModeFilter } from "../src/cpu/mode-filter.ts";
import { antiDitheredFrom8Bit } from "../src/numerics/preprocess.ts";
import { SpatialMask } from "../src/cpu/spatial-mask.ts";
import { spatialPooling } from "../src/numerics/topk-pooling.ts";

const ref = await firstFrame(GOLDEN_1080P.ref);
const dist = await firstFrame(GOLDEN_1080P.dist);
const bench = new Bench({ time: 3000, warmup: true });
const tasks = new Map<string, () => unknown>();
const add = (name: string, fn: () => unknown) => {
  tasks.set(name, fn);
  bench.add(name, fn);
};

const module = new WebAssembly.Module(Uint8Array.from(atob(CAMBI_KERNELS_WASM), (c) => c.charCodeAt(0)));
function extractorTask(name: string, options: Partial<CambiOptions>) {
  add(name, cpuFrameTask(new CambiCpu(cambiOptions.resolve(options)), () => ({ ref, dist })));
  add(`${name}, wasm`, cpuFrameTask(new CambiWasm(cambiOptions.resolve(options), module), () => ({ ref, dist })));
}
extractorTask("cambi (default options)", {});
extractorTask("cambi full_ref (distorted + reference)", { full_ref: true });
extractorTask("cambi, VMAF v1 options (hrs 1080, cmxv 17, vlt 0.06)", { cambi_high_res_speedup: 1080, cambi_max_val: 17, cambi_vis_lum_threshold: 0.06 });

// the passes, on the distorted picture with default options
const plan = planCambi(cambiOptions.defaults, dist.format);
const { width: W, height: H, windowSize } = plan.enc;
const image = new Uint16Array(W * H);
const scratch = new Uint16Array(W * H);
const next = new Uint16Array(W * H);
const filtered = new Uint16Array(W * H);
const dense = new Float32Array(W * H);
const mask = new MaskSpans(H, 1 << 16);
const spatialMask = new SpatialMask(W);
const modeFilter = new ModeFilter(W);
const cValues = new CValues(plan, W, H);
antiDitheredFrom8Bit(dist.planes[0]!, image);
spatialMask.compute(image, W, H, mask);
add("pass: 8-bit → 10-bit + anti-dithering", () => antiDitheredFrom8Bit(dist.planes[0]!, scratch));
add("pass: spatial mask", () => spatialMask.compute(image, W, H, mask));
add("pass: mode filter, scale 0", () => {
  scratch.set(image);
  modeFilter.run(scratch, W, H, mask, filtered, next);
});
scratch.set(image);
const scale0 = modeFilter.run(scratch, W, H, mask, filtered, next).slice();
add("pass: c-values, scale 0", () => cValues.compute(scale0, mask, W, H, windowSize));
// the same passes on the kernels, in their workspace (pictures and mask in their memory)
const workspace = wasmWorkspace(module, plan);
workspace.image.set(image);
workspace.spatialMask.compute(workspace.image, W, H, workspace.mask);
workspace.filtered.set(scale0);
add("pass: 8-bit → 10-bit + anti-dithering, wasm", () => workspace.antiDitheredFrom8Bit(dist.planes[0]!, workspace.other));
add("pass: spatial mask, wasm", () => workspace.spatialMask.compute(workspace.image, W, H, workspace.mask));
add("pass: mode filter, scale 0, wasm", () => {
  workspace.image.set(image);
  workspace.modeFilter.run(workspace.image, W, H, workspace.mask, workspace.filtered, workspace.other);
});
add("pass: c-values, scale 0, wasm", () => workspace.cValues.compute(workspace.filtered, workspace.mask, W, H, windowSize));
add("pass: top-k pooling, scale 0", () => spatialPooling(cValues, W * H, plan.topk, () => dense));

await bench.run();

/**
 * Process CPU time per iteration (median of 15): on a shared machine wall-clock time
 * also counts other processes' turns, CPU time mostly does not.
 */
function cpuMs(f: () => unknown): number {
  const times: number[] = [];
  for (let i = 0; i < 15; i++) {
    const before = process.cpuUsage();
    f();
    const used = process.cpuUsage(before);
    times.push((used.user + used.system) / 1000);
  }
  return times.sort((a, b) => a - b)[7]!;
}

const rows = bench.tasks.map((t) => {
  const ms = msPerIteration(t);
  const cpu = cpuMs(tasks.get(t.name)!);
  const perFrame = !t.name.startsWith("pass");
  return { task: t.name, "wall ms": ms.toFixed(2), "wall fps": perFrame ? (1000 / ms).toFixed(1) : "", "cpu ms": cpu.toFixed(2), "cpu fps": perFrame ? (1000 / cpu).toFixed(1) : "" };
});

/** The same frame pair, `frames` times. */
function repeat(picture: Picture, frames: number): VideoReader {
  let i = 0;
  return {
    name: "repeat",
    format: picture.format,
    async read() {
      if (i >= frames) return null;
      i++;
      return new Picture(picture.format, picture.buffer.slice());
    },
    release() {},
    async close() {},
  };
}
const FRAMES = 40;
for (const threads of [1, 2]) {
  const backend =
    threads === 1
      ? new CpuBackend([cambiFeature.cpu(cambiOptions.defaults)])
      : new ThreadedCpuBackend([{ extractor: cambiFeature.cpu(cambiOptions.defaults), spec: { name: "cambi", options: {} } }], new URL("./worker.ts", import.meta.url), threads);
  const t0 = performance.now();
  await scoreVideos(repeat(ref, FRAMES), repeat(dist, FRAMES), backend);
  const s = (performance.now() - t0) / 1000;
  rows.push({ task: `pipeline, ${threads} thread${threads > 1 ? "s" : ""}, ${FRAMES} frames`, "wall ms": ((s * 1000) / FRAMES).toFixed(2), "wall fps": (FRAMES / s).toFixed(1), "cpu ms": "", "cpu fps": "" });
}
console.table(rows);
const load = (await Bun.file("/proc/loadavg").text().catch(() => "")).split(" ").slice(0, 3).join(" ");
console.log(`${NUM_SCALES} scales, window ${windowSize} at ${W}x${H}; ${navigator.hardwareConcurrency} cores, load average while measuring: ${load || "unknown"}`);
process.exit(0);
