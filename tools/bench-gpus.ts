// Multi-GPU benchmark: one jobs file scored by `vq batch --gpus 1` and by `--gpus N`
// (one process per GPU, ADR 0037); prints both times and the speed-up, and checks that the
// outputs are identical apart from fps. Inputs: a 1080p Y4M pair (no decoding in the way),
// scored by every job: synthetic (tools/synthetic-y4m.ts) or ffmpeg's testsrc2 with noise. Usage:
//   bun tools/bench-gpus.ts --gpus N [--jobs N] [--frames N] [--input synthetic|testsrc2] [--ffmpeg PATH] [--dir DIR] [-- extra vq args]
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { benchArgs } from "./bench-args.ts";
import { jsonWithoutFps, timedRun } from "./bench-process.ts";
import { syntheticPair } from "./synthetic-y4m.ts";

const { get, extra } = benchArgs(process.argv.slice(2));
const ffmpeg = get("--ffmpeg", "ffmpeg");
const gpus = get("--gpus", "2");
const jobs = Number(get("--jobs", "64"));
const frames = Number(get("--frames", "48"));
const dir = get("--dir", "") || mkdtempSync(join(tmpdir(), "vq-gpus-bench-"));
mkdirSync(dir, { recursive: true });
const cli = new URL("../packages/cli/src/cli.ts", import.meta.url).pathname;

const run = timedRun;
// testsrc2 through ffmpeg, or (default) the synthetic pair, which needs no ffmpeg on the machine
const { reference: ref, distorted: dist } = get("--input", "synthetic") === "testsrc2" ? testsrcPair() : syntheticPair(dir, frames);

function testsrcPair(): { reference: string; distorted: string } {
  const reference = join(dir, `testsrc-ref-${frames}.y4m`);
  const distorted = join(dir, `testsrc-dist-${frames}.y4m`);
  if (!existsSync(reference)) run(ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i", `testsrc2=s=1920x1080:r=24:d=${frames / 24}`, "-pix_fmt", "yuv420p", reference]);
  if (!existsSync(distorted)) run(ffmpeg, ["-v", "error", "-y", "-i", reference, "-vf", "noise=alls=12:allf=t", "-pix_fmt", "yuv420p", distorted]);
  return { reference, distorted };
}
const args = ["--json", "--backend", "gpu", ...extra];
const times: Record<string, number> = {};
for (const g of ["1", gpus]) {
  const out = (i: number) => join(dir, `g${g}-${i}.json`);
  for (let i = 0; i < jobs; i++) rmSync(out(i), { force: true });
  const file = join(dir, `jobs-${g}.jsonl`);
  writeFileSync(file, Array.from({ length: jobs }, (_, i) => JSON.stringify({ reference: ref, distorted: dist, output: out(i), args })).join("\n") + "\n");
  times[g] = run(process.execPath, [cli, "batch", file, "--gpus", g, "-q"]);
}
const withoutFps = jsonWithoutFps;
const identical = Array.from({ length: jobs }, (_, i) => i).every((i) => withoutFps(join(dir, `g1-${i}.json`)) === withoutFps(join(dir, `g${gpus}-${i}.json`)));
console.log(`${jobs} jobs of ${frames} frames of 1080p (Y4M, ${get("--input", "synthetic")}), ${extra.join(" ") || "VMAF v0.6.1"}`);
console.log(`  vq batch --gpus 1: ${(times["1"]! / 1000).toFixed(2)} s (${((jobs * frames) / (times["1"]! / 1000)).toFixed(0)} fps)`);
console.log(`  vq batch --gpus ${gpus}: ${(times[gpus]! / 1000).toFixed(2)} s (${((jobs * frames) / (times[gpus]! / 1000)).toFixed(0)} fps)`);
console.log(`  speed-up ${(times["1"]! / times[gpus]!).toFixed(2)}x; outputs ${identical ? "identical" : "DIFFERENT"} apart from fps`);
if (!identical) process.exit(1);
