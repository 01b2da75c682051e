// Chunked scoring benchmark (issue 18): one long 1080p job, `vq submit --chunk-frames N
// --wait` on a BullMQ queue served by `vq worker --gpus 1` and then by `--gpus G` (one
// worker per GPU), and the same job by `vq batch --gpus 1|G --chunk-frames N`. Prints the
// times and the speed-ups and checks every output against a single `vq` run (fps aside).
// Inputs: a Y4M pair of --frames frames, a 240-frame ffmpeg clip repeated (seekable: a
// chunk reads only its own frames). Needs redis-server on PATH (started on 127.0.0.1). Usage:
//   bun tools/bench-chunked.ts --gpus G [--frames 10000] [--chunk-frames 1000] [--ffmpeg PATH] [--dir DIR] [-- extra vq args]
import { spawn } from "node:child_process";
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TestRedis } from "../packages/cli/src/testing/redis-server.ts";
import { benchArgs } from "./bench-args.ts";
import { jsonWithoutFps, timedRun } from "./bench-process.ts";

const { get, extra } = benchArgs(process.argv.slice(2));
const ffmpeg = get("--ffmpeg", "ffmpeg");
const gpus = get("--gpus", "2");
const frames = Number(get("--frames", "10000"));
const chunkFrames = get("--chunk-frames", "1000");
const dir = get("--dir", "") || mkdtempSync(join(tmpdir(), "vq-chunked-bench-"));
mkdirSync(dir, { recursive: true });
const cli = new URL("../packages/cli/src/cli.ts", import.meta.url).pathname;
const vq = (args: string[]) => timedRun(process.execPath, [cli, ...args]);

const clipFrames = 240;

/** A Y4M file of `count` frames: the clip's frames over and over. */
function repeatedY4m(clip: string, count: number, path: string): void {
  const bytes = readFileSync(clip);
  const headerEnd = bytes.indexOf(0x0a) + 1;
  const frameBytes = (bytes.length - headerEnd) / clipFrames;
  const fd = openSync(path, "w");
  writeSync(fd, bytes.subarray(0, headerEnd));
  for (let i = 0; i < count; i++) {
    const at = headerEnd + (i % clipFrames) * frameBytes;
    writeSync(fd, bytes.subarray(at, at + frameBytes));
  }
  closeSync(fd);
}
const ref = join(dir, `ref-${frames}.y4m`);
const dist = join(dir, `dist-${frames}.y4m`);
if (!existsSync(ref) || !existsSync(dist)) {
  const refClip = join(dir, "ref-clip.y4m");
  const distClip = join(dir, "dist-clip.y4m");
  timedRun(ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i", `testsrc2=s=1920x1080:r=24:d=${clipFrames / 24}`, "-pix_fmt", "yuv420p", refClip]);
  timedRun(ffmpeg, ["-v", "error", "-y", "-i", refClip, "-vf", "noise=alls=12:allf=t", "-pix_fmt", "yuv420p", distClip]);
  repeatedY4m(refClip, frames, ref);
  repeatedY4m(distClip, frames, dist);
}
const args = ["--json", "--backend", "gpu", ...extra];
const single = join(dir, "single.json");
const singleMs = vq([...args, "-r", ref, "-d", dist, "-o", single]);
const line = (output: string) => JSON.stringify({ reference: ref, distorted: dist, output, args });

/** One queue run: a worker per GPU (warmed by a short job), the long job submitted and waited for. */
async function queued(g: string): Promise<{ ms: number; output: string }> {
  const redis = await TestRedis.start();
  const worker = spawn(process.execPath, [cli, "worker", "--redis", redis.url, "--gpus", g, "-q"], { stdio: ["ignore", "ignore", "inherit"] });
  try {
    await Bun.sleep(1000);
    if (worker.exitCode !== null) throw new Error(`vq worker --gpus ${g} ended (exit code ${worker.exitCode})`);
    const warm = join(dir, `warm-${g}.json`);
    rmSync(warm, { force: true });
    const warmJobs = join(dir, `warm-${g}.jsonl`);
    writeFileSync(warmJobs, JSON.stringify({ reference: ref, distorted: dist, output: warm, args: [...args, "--frame_cnt", "48"] }) + "\n");
    vq(["submit", "--redis", redis.url, "--wait", "-q", warmJobs]);
    const output = join(dir, `queue-${g}.json`);
    rmSync(output, { force: true });
    const jobs = join(dir, `queue-${g}.jsonl`);
    writeFileSync(jobs, line(output) + "\n");
    return { ms: vq(["submit", "--redis", redis.url, "--chunk-frames", chunkFrames, "--wait", "-q", jobs]), output };
  } finally {
    const exited = new Promise((resolve) => worker.once("exit", resolve));
    worker.kill("SIGTERM");
    await exited;
    await redis.close();
  }
}

function batched(g: string): { ms: number; output: string } {
  const output = join(dir, `batch-${g}.json`);
  rmSync(output, { force: true });
  const jobs = join(dir, `batch-${g}.jsonl`);
  writeFileSync(jobs, line(output) + "\n");
  return { ms: vq(["batch", jobs, "--gpus", g, "--chunk-frames", chunkFrames, "-q"]), output };
}

const expected = jsonWithoutFps(single);
const report = (what: string, r: { ms: number; output: string }) => {
  const same = jsonWithoutFps(r.output) === expected;
  console.log(`  ${what}: ${(r.ms / 1000).toFixed(2)} s (${(frames / (r.ms / 1000)).toFixed(0)} fps), output ${same ? "identical to the single run" : "DIFFERENT"}`);
  return same;
};
console.log(`one ${frames}-frame 1080p job (Y4M), chunks of ${chunkFrames}, ${extra.join(" ") || "VMAF v0.6.1"}`);
console.log(`  single vq run: ${(singleMs / 1000).toFixed(2)} s (${(frames / (singleMs / 1000)).toFixed(0)} fps)`);
const q1 = await queued("1");
const qg = await queued(gpus);
const b1 = batched("1");
const bg = batched(gpus);
const ok = [report("queue, 1 worker (1 GPU)", q1), report(`queue, ${gpus} workers (${gpus} GPUs)`, qg), report("vq batch --gpus 1", b1), report(`vq batch --gpus ${gpus}`, bg)].every(Boolean);
console.log(`  speed-up: queue ${(q1.ms / qg.ms).toFixed(2)}x, batch ${(b1.ms / bg.ms).toFixed(2)}x`);
if (!ok) process.exit(1);
