// Batch benchmark: many short jobs scored by one `vq batch` process against the same jobs
// scored by separate `vq` runs, one after the other, as a script would. Whole processes,
// wall time; the outputs of both ways must be identical apart from fps. Usage:
//   bun tools/bench-batch.ts [--jobs N] [--frames N] [--concurrency N[,N...]] [--ffmpeg PATH] [--dir DIR] [-- extra vq args]
// It makes its inputs in DIR (default a temporary folder) with ffmpeg: a 1080p24 testsrc2
// clip of N frames (x264 CRF 12) as the reference and an x264 CRF 30 encode of it; every job
// scores that pair (default 200 jobs of 48 frames: two-second clips, VMAF v0.6.1).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { benchArgs } from "./bench-args.ts";
import { h264Pair } from "./h264-pair.ts";
import { jsonWithoutFps, timedRun } from "./bench-process.ts";

const { get, extra } = benchArgs(process.argv.slice(2));
const ffmpeg = get("--ffmpeg", "ffmpeg");
const jobs = Number(get("--jobs", "200"));
const frames = Number(get("--frames", "48"));
/** One batch per value: `--concurrency 2,4,8` compares them against the same separate runs. */
const concurrencies = get("--concurrency", "2").split(",");
const dir = get("--dir", "") || mkdtempSync(join(tmpdir(), "vq-batch-bench-"));
mkdirSync(dir, { recursive: true });
const cli = new URL("../packages/cli/src/cli.ts", import.meta.url).pathname;

const run = timedRun;

const { reference, distorted } = h264Pair(ffmpeg, dir, frames);

const args = ["--ffmpeg", ffmpeg, "--json", ...extra];
const out = (way: string, i: number) => join(dir, `${way}-${i}.json`);
const ways = ["separate", ...concurrencies.map((c) => `batch${c}`)];
for (let i = 0; i < jobs; i++) for (const way of ways) rmSync(out(way, i), { force: true });
const separateMs = Array.from({ length: jobs }, (_, i) => i).reduce((ms, i) => ms + run(process.execPath, [cli, "-q", ...args, "-r", reference, "-d", distorted, "-o", out("separate", i)]), 0);
console.log(`${jobs} jobs of ${frames} frames of 1080p (H.264), ${extra.join(" ") || "VMAF v0.6.1"}`);
console.log(`  separate runs: ${(separateMs / 1000).toFixed(2)} s (${((jobs * frames) / (separateMs / 1000)).toFixed(0)} fps)`);
let allIdentical = true;
for (const concurrency of concurrencies) {
  const way = `batch${concurrency}`;
  const file = join(dir, `jobs-${concurrency}.jsonl`);
  writeFileSync(file, Array.from({ length: jobs }, (_, i) => JSON.stringify({ reference, distorted, output: out(way, i), args })).join("\n") + "\n");
  const batchMs = run(process.execPath, [cli, "batch", file, "--concurrency", concurrency, "-q"]);
  const identical = Array.from({ length: jobs }, (_, i) => i).every((i) => jsonWithoutFps(out("separate", i)) === jsonWithoutFps(out(way, i)));
  allIdentical &&= identical;
  console.log(`  vq batch --concurrency ${concurrency}: ${(batchMs / 1000).toFixed(2)} s (${((jobs * frames) / (batchMs / 1000)).toFixed(0)} fps): speed-up ${(separateMs / batchMs).toFixed(2)}x; outputs ${identical ? "identical" : "DIFFERENT"} apart from fps`);
}
if (!allIdentical) process.exit(1);
