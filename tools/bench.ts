// End-to-end benchmark: the whole `vq` process (start, read Y4M, extract, model, write)
// on golden pairs, per backend. Prints fps over the whole run, the steady rate (the
// frames of the second half over the time they add: start-up cancels out) and the cold
// start (a run of one frame). Usage:
//   bun tools/bench.ts [--backend cpu|gpu] [--pairs a,b] [--repeat N] [--frames N] [--upscale K] [-- extra vq args]
// --frames repeats the pair's frames to N (the golden 1080p pair has only 5); --upscale K
// multiplies width and height by K (1080p x2 or the 10-bit 960x540 pair x4 → 4K).
import { spawnSync } from "node:child_process";
import { goldenPairs, goldenPath } from "../packages/core/src/golden.ts";
import { benchInput } from "./bench-inputs.ts";

const argv = process.argv.slice(2);
const sep = argv.indexOf("--");
const extra = sep >= 0 ? argv.slice(sep + 1) : [];
const opts = sep >= 0 ? argv.slice(0, sep) : argv;
const get = (name: string, fallback: string) => {
  const i = opts.indexOf(name);
  return i >= 0 ? opts[i + 1]! : fallback;
};
const backend = get("--backend", "cpu");
const repeat = Number(get("--repeat", "3"));
const wanted = get("--pairs", "nat_576x324.x264crf30,nat_1920x1080.x264crf35").split(",");
const frameCount = Number(get("--frames", "0"));
const upscale = Number(get("--upscale", "1"));
const cli = new URL("../packages/cli/src/cli.ts", import.meta.url).pathname;

function run(args: string[]): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [cli, ...args], { stdio: ["ignore", "ignore", "pipe"] });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`vq failed: ${r.stderr}`);
  return ms;
}

/** GPU time per frame from a separate `--gpu-profile` run (timestamps cost a little, so not timed). */
function gpuMicrosPerFrame(args: string[]): string {
  const r = spawnSync(process.execPath, [cli, ...args, "--gpu-profile"], { stdio: ["ignore", "ignore", "pipe"], encoding: "utf8" });
  if (r.status !== 0) throw new Error(`vq failed: ${r.stderr}`);
  return /^total\s+([\d.]+) µs\/frame/m.exec(r.stderr)?.[1] ?? "n/a";
}

const rows: Record<string, string>[] = [];
for (const pair of goldenPairs().filter((p) => wanted.includes(p.pair))) {
  const frames = frameCount || pair.frame_count;
  const input = (p: string) => (frameCount || upscale > 1 ? benchInput(goldenPath(p), frames, upscale) : goldenPath(p));
  const base = ["-r", input(pair.reference), "-d", input(pair.distorted), "--json", "-o", "/dev/null", "-q", "--backend", backend, ...extra];
  const median = (args: string[]) => [...Array(repeat)].map(() => run(args)).sort((a, b) => a - b)[Math.floor(repeat / 2)]!;
  const cold = Math.min(...Array.from({ length: repeat }, () => run([...base, "--frame_cnt", "1"])));
  const whole = median(base);
  const half = Math.floor(frames / 2);
  const firstHalf = median([...base, "--frame_cnt", String(half)]);
  rows.push({
    pair: pair.pair,
    size: `${pair.width * upscale}x${pair.height * upscale}`,
    frames: String(frames),
    "median ms": whole.toFixed(0),
    "fps (whole process)": ((frames * 1000) / whole).toFixed(2),
    "fps (steady: 2nd half of the frames)": (((frames - half) * 1000) / Math.max(1, whole - firstHalf)).toFixed(2),
    "cold start ms": cold.toFixed(0),
    ...(backend === "cpu" ? {} : { "GPU µs/frame (timestamps)": gpuMicrosPerFrame(base) }),
  });
}
console.log(`vq ${backend} ${extra.join(" ")}`);
console.table(rows);
