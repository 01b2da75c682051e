// --threads on the CPU: frames/s with 1 and N threads and the scaling against linear
// (adr/0041-threads-read-their-frames.md). Y4M or raw YUV files, as given.
//   bun tools/bench-threads.ts REF.y4m DIST.y4m [--threads 1,2,16] [--frames N] [-- [-n] [--feature NAME ...]]
import { score } from "@vq/score";
import { benchArgs } from "./bench-args.ts";
import { mainThreadCpu } from "./bench-process.ts";

const argv = process.argv.slice(2);
const [reference, distorted] = argv;
if (!reference || !distorted) throw new Error("usage: bun tools/bench-threads.ts REF.y4m DIST.y4m [--threads 1,2] [--frames N] [-- [-n] [--feature NAME ...]]");
const { get, extra } = benchArgs(argv.slice(2));
const threadCounts = get("--threads", "1,2").split(",").map(Number);
const frameCount = get("--frames", "") ? Number(get("--frames", "")) : undefined;
// after `--`: `--feature NAME` (beside VMAF v0.6.1), `-n` (no model)
const features = extra.flatMap((a, i) => (extra[i - 1] === "--feature" ? [a] : []));
const noPrediction = extra.includes("-n");
let base: number | undefined;
for (const threads of threadCounts) {
  const cpu0 = mainThreadCpu();
  const t0 = performance.now();
  const summary = await score({ reference, distorted, backend: "cpu", threads, frameCount, features, noPrediction }).result;
  const s = (performance.now() - t0) / 1000;
  const fps = summary.frames / s;
  const cpu1 = mainThreadCpu();
  const main = cpu0 === undefined || cpu1 === undefined ? "" : `; main thread ${(((cpu1 - cpu0) / summary.frames) * 1000).toFixed(1)} ms CPU a frame`;
  base ??= fps / threads;
  console.log(`--threads ${threads}: ${fps.toFixed(2)} fps (${summary.frames} frames, ${s.toFixed(2)} s), ${(fps / (base * threads)).toFixed(2)} of linear (${summary.backend})${main}`);
}
