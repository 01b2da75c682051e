// Memory soak (issue 20): one long scoring run of small synthetic pictures, the process's
// resident set, its JavaScript heap after a full collection and, where nvidia-smi answers,
// the GPU memory in use, sampled as it goes. Usage:
//   bun tools/soak.ts [--backend cpu|gpu] [--frames N] [--size WxH] [--every N] [--threads N]
// Prints the samples and the growth from the first sample after 10% of the frames to the end,
// beside what the stored scores take (keys x frames doubles).
import { spawnSync } from "node:child_process";
import { soak } from "../packages/score/src/memory-soak.ts";
import { benchArgs } from "./bench-args.ts";

const { get } = benchArgs(process.argv.slice(2));
const backend = get("--backend", "cpu") as "cpu" | "gpu";
const frames = Number(get("--frames", "100000"));
const [width, height] = get("--size", "160x120").split("x").map(Number) as [number, number];
const every = Number(get("--every", String(Math.max(1, Math.floor(frames / 20)))));
const threads = Number(get("--threads", "1"));

/** This process's GPU memory from nvidia-smi, in bytes; undefined without it. */
function gpuMemory(): number | undefined {
  const r = spawnSync("nvidia-smi", ["--query-compute-apps=pid,used_memory", "--format=csv,noheader,nounits"], { encoding: "utf8" });
  if (r.status !== 0) return undefined;
  const mine = r.stdout.split("\n").map((l) => l.split(",").map((x) => x.trim())).find(([pid]) => Number(pid) === process.pid);
  return mine ? Number(mine[1]) * (1 << 20) : undefined;
}

const t0 = performance.now();
const { samples, scoredFrames, keys } = await soak({ frames, width, height, backend, every, request: { threads }, gpuMemory: backend === "gpu" ? gpuMemory : undefined });
const seconds = (performance.now() - t0) / 1000;
const mb = (b: number | undefined) => (b === undefined ? "-" : (b / (1 << 20)).toFixed(1));
console.log(`${backend}${threads > 1 ? ` (${threads} threads)` : ""}, VMAF v0.6.1, ${scoredFrames} frames of ${width}x${height}, ${(scoredFrames / seconds).toFixed(0)} fps`);
console.log("frame      rss MB   heap MB   gpu MB");
for (const s of samples) console.log(`${String(s.frame).padStart(7)}  ${mb(s.rss).padStart(7)}  ${mb(s.heap).padStart(8)}  ${mb(s.gpu).padStart(7)}`);
const start = samples.find((s) => s.frame >= frames / 10)!;
const end = samples[samples.length - 1]!;
const scoresBytes = keys * (end.frame - start.frame) * 8;
console.log(`growth from frame ${start.frame}: rss ${mb(end.rss - start.rss)} MB, heap ${mb(end.heap - start.heap)} MB` + (end.gpu !== undefined && start.gpu !== undefined ? `, gpu ${mb(end.gpu - start.gpu)} MB` : "") + `; the stored scores of those frames: ${mb(scoresBytes)} MB (${keys} keys)`);
