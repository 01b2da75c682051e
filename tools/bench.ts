// End-to-end benchmark: the whole `vq` process (start, read Y4M, extract, model, write)
// on golden pairs, per backend. Prints fps over the whole run; from `vq --timing`, the
// steady rate (the frames of the run's second half over their time, measured inside the
// process) and the first score (process start to the first frame's scores); the cold start
// (the first score of a run of one frame) and the wall time of that run. Each figure is the
// median of the repeats. Usage:
//   bun tools/bench.ts [--backend cpu|gpu] [--cli bundle|source] [--pairs a,b] [--repeat N] [--frames N] [--upscale K] [-- extra vq args]
// --cli bundle (the default) runs `vq` as the published package does, from the bundle this
// builds in packages/cli/dist/vq/ (adr/0021-cli-bundle.md); --cli source runs the sources.
// --frames repeats the pair's frames to N (the golden 1080p pair has only 5); --upscale K
// multiplies width and height by K (1080p x2 or the 10-bit 960x540 pair x4 → 4K).
import { spawnSync } from "node:child_process";
import { goldenPairs, goldenPath } from "../packages/core/src/golden.ts";
import { benchInput } from "./bench-inputs.ts";
import { benchArgs } from "./bench-args.ts";
import { buildCliBundle, CLI_BUNDLE_DIR } from "./build-cli-bundle.ts";

const { get, extra } = benchArgs(process.argv.slice(2));
const backend = get("--backend", "cpu");
const repeat = Number(get("--repeat", "3"));
const wanted = get("--pairs", "nat_576x324.x264crf30,nat_1920x1080.x264crf35").split(",");
const frameCount = Number(get("--frames", "0"));
const upscale = Number(get("--upscale", "1"));
const cliKind = get("--cli", "bundle");
if (cliKind !== "bundle" && cliKind !== "source") throw new Error(`--cli: bundle or source, not ${cliKind}`);
const cli = cliKind === "source" ? new URL("../packages/cli/src/cli.ts", import.meta.url).pathname : `${CLI_BUNDLE_DIR}/cli.js`;
if (cliKind === "bundle") await buildCliBundle(CLI_BUNDLE_DIR);

interface Run {
  /** Wall time of the whole process. */
  ms: number;
  /** From `--timing`. */
  firstScoreMs: number;
  steadyFps?: number;
}

function run(args: string[]): Run {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [cli, ...args, "--timing"], { stdio: ["ignore", "ignore", "pipe"], encoding: "utf8" });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`vq failed: ${r.stderr}`);
  const first = /first score (\d+) ms/.exec(r.stderr);
  if (!first) throw new Error(`vq printed no timing: ${r.stderr}`);
  const steady = /steady ([\d.]+) fps/.exec(r.stderr);
  return { ms, firstScoreMs: Number(first[1]), steadyFps: steady ? Number(steady[1]) : undefined };
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

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
  const oneFrameRuns = Array.from({ length: repeat }, () => run([...base, "--frame_cnt", "1"]));
  const runs = Array.from({ length: repeat }, () => run(base));
  const whole = median(runs.map((r) => r.ms));
  const steady = runs.every((r) => r.steadyFps !== undefined) ? median(runs.map((r) => r.steadyFps!)).toFixed(1) : "n/a";
  rows.push({
    pair: pair.pair,
    size: `${pair.width * upscale}x${pair.height * upscale}`,
    frames: String(frames),
    "median ms": whole.toFixed(0),
    "fps (whole process)": ((frames * 1000) / whole).toFixed(2),
    "fps (steady: 2nd half, in process)": steady,
    "first score ms": median(runs.map((r) => r.firstScoreMs)).toFixed(0),
    "cold start: 1-frame first score ms": median(oneFrameRuns.map((r) => r.firstScoreMs)).toFixed(0),
    "1-frame run ms": median(oneFrameRuns.map((r) => r.ms)).toFixed(0),
    ...(backend === "cpu" ? {} : { "GPU µs/frame (timestamps)": gpuMicrosPerFrame(base) }),
  });
}
console.log(`vq ${backend} ${extra.join(" ")}`);
console.table(rows);
