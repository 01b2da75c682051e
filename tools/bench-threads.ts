// --threads on the CPU: frames/s with 1 and N threads and the scaling against linear
// (adr/0041-threads-read-their-frames.md). Y4M or raw YUV files, as given.
//   bun tools/bench-threads.ts REF.y4m DIST.y4m [--threads 1,2,16] [--frames N] [-- feature args for score()]
import { score } from "@vq/score";
import { benchArgs } from "./bench-args.ts";

const argv = process.argv.slice(2);
const [reference, distorted] = argv;
if (!reference || !distorted) throw new Error("usage: bun tools/bench-threads.ts REF.y4m DIST.y4m [--threads 1,2] [--frames N] [-- --feature NAME ...]");
const { get, extra } = benchArgs(argv.slice(2));
const threadCounts = get("--threads", "1,2").split(",").map(Number);
const frameCount = get("--frames", "") ? Number(get("--frames", "")) : undefined;
// `-- --feature psnr --feature vif` (no model) or nothing (VMAF v0.6.1)
const features = extra.flatMap((a, i) => (extra[i - 1] === "--feature" ? [a] : []));
let base: number | undefined;
for (const threads of threadCounts) {
  const t0 = performance.now();
  const summary = await score({ reference, distorted, backend: "cpu", threads, frameCount, features, noPrediction: features.length > 0 }).result;
  const s = (performance.now() - t0) / 1000;
  const fps = summary.frames / s;
  base ??= fps / threads;
  console.log(`--threads ${threads}: ${fps.toFixed(2)} fps (${summary.frames} frames, ${s.toFixed(2)} s), ${(fps / (base * threads)).toFixed(2)} of linear (${summary.backend})`);
}
