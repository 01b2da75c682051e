// --threads on the CPU: frames/s with 1 and N threads and the scaling against linear
// (adr/0041-threads-read-their-frames.md). Y4M or raw YUV files, as given, or `--synthetic N`:
// tools/synthetic-y4m.ts's 1080p pair of N frames, written once to /dev/shm (the temporary
// folder when /dev/shm lacks room), so that a bare device machine needs nothing else.
//   bun tools/bench-threads.ts REF.y4m DIST.y4m [--threads 1,2,16] [--frames N] [--repeat N] [-- [-n] [--feature NAME ...]]
//   bun tools/bench-threads.ts --synthetic 960 [--threads 1,8,16] [-- ...]
import { spawnSync } from "node:child_process";
import { existsSync, statfsSync } from "node:fs";
import { tmpdir } from "node:os";
import { score } from "@vq/score";
import { benchArgs } from "./bench-args.ts";
import { mainThreadCpu } from "./bench-process.ts";
import { syntheticPair } from "./synthetic-y4m.ts";
// @ts-expect-error: a plain JavaScript module of the bin wrapper, without types
import { FAST_MEMORIES_VARIABLE, withFastMemories } from "../packages/cli/bin/fast-memories.js";

// Under Bun, as `vq` does: more fast WebAssembly memories than Bun's 8, an option Bun reads
// only at start (adr/0044-bun-fast-wasm-memories.md); BUN_JSC_maxNumWasmFastMemories=8 measures without.
if (typeof Bun !== "undefined" && !process.env[FAST_MEMORIES_VARIABLE]) {
  const child = spawnSync(process.execPath, process.argv.slice(1), { stdio: "inherit", env: withFastMemories(process.env) });
  process.exit(child.status ?? 1);
}

const usage = "usage: bun tools/bench-threads.ts (REF.y4m DIST.y4m | --synthetic FRAMES) [--threads 1,2] [--frames N] [--repeat N] [-- [-n] [--feature NAME ...]]";
const argv = process.argv.slice(2);
const synthetic = argv[0] === "--synthetic" ? Number(argv[1]) : undefined;
if (synthetic !== undefined && !(synthetic > 0)) throw new Error(usage);
/** /dev/shm when it has room for the pair (a container's may be small), else the temporary folder. */
function syntheticDir(frames: number): string {
  const bytes = 2 * frames * (1920 * 1080 * 1.5 + 6);
  if (!existsSync("/dev/shm")) return tmpdir();
  const { bavail, bsize } = statfsSync("/dev/shm");
  return bavail * bsize > 1.1 * bytes ? "/dev/shm" : tmpdir();
}
const { reference, distorted } = synthetic ? syntheticPair(syntheticDir(synthetic), synthetic) : { reference: argv[0], distorted: argv[1] };
if (!reference || !distorted) throw new Error(usage);
const { get, extra } = benchArgs(argv.slice(2));
const threadCounts = get("--threads", "1,2").split(",").map(Number);
const frameCount = get("--frames", "") ? Number(get("--frames", "")) : undefined;
// after `--`: `--feature NAME` (beside VMAF v0.6.1), `-n` (no model)
const features = extra.flatMap((a, i) => (extra[i - 1] === "--feature" ? [a] : []));
const noPrediction = extra.includes("-n");
// --repeat N: each thread count N times, the run of median rate reported (a shared machine's noise)
const repeat = Number(get("--repeat", "1"));
let base: number | undefined;
for (const threads of threadCounts) {
  const runs: { fps: number; frames: number; s: number; backend: string; main: string }[] = [];
  for (let r = 0; r < repeat; r++) {
    const cpu0 = mainThreadCpu();
    const t0 = performance.now();
    const summary = await score({ reference, distorted, backend: "cpu", threads, frameCount, features, noPrediction }).result;
    const s = (performance.now() - t0) / 1000;
    const cpu1 = mainThreadCpu();
    const main = cpu0 === undefined || cpu1 === undefined ? "" : `; main thread ${(((cpu1 - cpu0) / summary.frames) * 1000).toFixed(1)} ms CPU a frame`;
    runs.push({ fps: summary.frames / s, frames: summary.frames, s, backend: summary.backend, main });
  }
  runs.sort((a, b) => a.fps - b.fps);
  const { fps, frames, s, backend, main } = runs[Math.floor(runs.length / 2)]!;
  const all = repeat > 1 ? ` [${runs.map((r) => r.fps.toFixed(2)).join(", ")}]` : "";
  base ??= fps / threads;
  console.log(`--threads ${threads}: ${fps.toFixed(2)} fps (${frames} frames, ${s.toFixed(2)} s)${all}, ${(fps / (base * threads)).toFixed(2)} of linear (${backend})${main}`);
}
