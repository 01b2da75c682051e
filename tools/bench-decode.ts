// Decoding benchmark: does vq keep up with ffmpeg's decoder? Scores an H.264 pair and
// decodes the same two files with ffmpeg alone, both at once (as vq decodes them: one ffmpeg
// process per input), and prints vq's rate over the decode-only rate (issue 18 asks >= 0.9).
// With --hwaccel NAME both decode through ffmpeg's -hwaccel NAME (vq's --hwaccel).
//   bun tools/bench-decode.ts [--ffmpeg PATH] [--hwaccel NAME] [--frames N] [--size WxH] [--dir DIR] [-- extra vq args]
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { benchArgs } from "./bench-args.ts";
import { h264Pair } from "./h264-pair.ts";

const { get, extra } = benchArgs(process.argv.slice(2));
const ffmpeg = get("--ffmpeg", "ffmpeg");
const frames = Number(get("--frames", "1200"));
const size = get("--size", "1920x1080");
const hwaccel = get("--hwaccel", "");
// a hardware decoder's frames back to the pair's 8-bit 4:2:0, which Y4M takes (as vq converts them)
const hardwareBack = hwaccel ? ["-vf", "format=yuv420p"] : [];
const dir = get("--dir", "") || mkdtempSync(join(tmpdir(), "vq-decode-bench-"));
mkdirSync(dir, { recursive: true });
const cli = new URL("../packages/cli/src/cli.ts", import.meta.url).pathname;

const { reference: ref, distorted: dist } = h264Pair(ffmpeg, dir, frames, size);

function timed(cmd: string, args: string[]): Promise<number> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, args, { stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    p.stderr.on("data", (d: Buffer) => (err += d));
    p.on("close", (code) => (code === 0 ? resolve(performance.now() - t0) : reject(new Error(`${cmd} ${args.join(" ")} (${code}): ${err}`))));
  });
}
// decode-only: both files at once, each to Y4M as vq asks ffmpeg for them, thrown away
const decode = async () => {
  const t0 = performance.now();
  await Promise.all([ref, dist].map((f) => timed(ffmpeg, ["-v", "error", "-nostdin", ...(hwaccel ? ["-hwaccel", hwaccel] : []), "-i", f, "-map", "0:v:0", ...hardwareBack, "-f", "yuv4mpegpipe", "-strict", "-1", "-y", "/dev/null"])));
  return performance.now() - t0;
};
const score = () => timed(process.execPath, [cli, "-r", ref, "-d", dist, "--ffmpeg", ffmpeg, "--json", "-o", join(dir, "out.json"), "-q", ...(hwaccel ? ["--hwaccel", hwaccel] : []), ...extra]);
const decodeMs: number[] = [];
const scoreMs: number[] = [];
for (let r = 0; r < 3; r++) {
  decodeMs.push(await decode());
  scoreMs.push(await score());
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[1]!;
const d = frames / (median(decodeMs) / 1000);
const s = frames / (median(scoreMs) / 1000);
console.log(`${frames} frames of ${size} H.264 (x264 CRF 12 / CRF 30)${hwaccel ? `, -hwaccel ${hwaccel}` : ""}, ${extra.join(" ") || "VMAF v0.6.1"}`);
console.log(`  ffmpeg decoding both files at once: ${d.toFixed(0)} fps   [${decodeMs.map((x) => (x / 1000).toFixed(2)).join(", ")} s]`);
console.log(`  vq scoring them: ${s.toFixed(0)} fps   [${scoreMs.map((x) => (x / 1000).toFixed(2)).join(", ")} s]`);
console.log(`  ratio vq / decode-only: ${(s / d).toFixed(2)}`);
