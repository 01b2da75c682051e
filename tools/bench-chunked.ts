// Chunked scoring benchmark (issue 18): one long 1080p job, `vq submit --chunk-frames N
// --wait` on a BullMQ queue served by `vq worker --gpus 1` and then by `--gpus G` (one
// worker per GPU), and the same job by `vq batch --gpus 1|G --chunk-frames N`. Prints the
// times and the speed-ups and checks every output against a single `vq` run (fps aside).
// Inputs: a synthetic 1080p Y4M pair of --frames frames, a 48-frame clip repeated (made
// here, no ffmpeg needed). Needs redis-server on PATH (started on 127.0.0.1). Usage:
//   bun tools/bench-chunked.ts --gpus G [--frames 10000] [--chunk-frames 1000] [--concurrency 2] [--dir DIR] [--timeline] [-- extra vq args]
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { TestRedis } from "../packages/cli/src/testing/redis-server.ts";
import { benchArgs } from "./bench-args.ts";
import { jsonWithoutFps, timedRun } from "./bench-process.ts";
import { syntheticPair } from "./synthetic-y4m.ts";

const { get, extra } = benchArgs(process.argv.slice(2));
const gpus = get("--gpus", "2");
const frames = Number(get("--frames", "10000"));
const chunkFrames = get("--chunk-frames", "1000");
const timeline = process.argv.includes("--timeline");
const concurrency = get("--concurrency", "2");
const dir = get("--dir", "") || mkdtempSync(join(tmpdir(), "vq-chunked-bench-"));
mkdirSync(dir, { recursive: true });
const cli = new URL("../packages/cli/src/cli.ts", import.meta.url).pathname;
const vq = (args: string[]) => timedRun(process.execPath, [cli, ...args]);

const { reference: ref, distorted: dist } = syntheticPair(dir, frames);
const args = ["--json", "--backend", "gpu", ...extra];
const single = join(dir, "single.json");
const singleMs = vq([...args, "-r", ref, "-d", dist, "-o", single]);
const line = (output: string) => JSON.stringify({ reference: ref, distorted: dist, output, args });

/** `vq ARGS` to its end, in ms; rejects when it fails or when `worker` ends first (the submit would wait forever). */
function vqWhileWorking(a: string[], worker: ReturnType<typeof spawn>): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const p = spawn(process.execPath, [cli, ...a], { stdio: ["ignore", "ignore", "inherit"] });
    const died = () => (p.kill("SIGKILL"), reject(new Error(`the worker ended (exit code ${worker.exitCode})`)));
    worker.once("exit", died);
    p.once("exit", (code) => {
      worker.off("exit", died);
      if (code === 0) resolve(performance.now() - t0);
      else reject(new Error(`vq ${a.join(" ")} failed (${code})`));
    });
  });
}

/** One queue run: a worker per GPU (warmed by a short job), the long job submitted and waited for. */
async function queued(g: string): Promise<{ ms: number; output: string }> {
  const redis = await TestRedis.start();
  const worker = spawn(process.execPath, [cli, "worker", "--redis", redis.url, "--gpus", g, "--concurrency", concurrency], { stdio: ["ignore", "ignore", "pipe"] });
  // --timeline: the workers' lines (each chunk scored, the merge) with the time since the long job was submitted
  let submitted = Infinity;
  createInterface({ input: worker.stderr! }).on("line", (l) => {
    const at = performance.now() - submitted;
    if (timeline && at >= 0 && Number.isFinite(at)) console.log(`    ${(at / 1000).toFixed(3)} s  ${l}`);
    else if (!/^vq: worker: /.test(l)) console.error(l);
  });
  try {
    const warm = join(dir, `warm-${g}.json`);
    rmSync(warm, { force: true });
    const warmJobs = join(dir, `warm-${g}.jsonl`);
    // a long-running farm's workers have their GPUs set up: enough small chunks that every worker gets some
    const warmChunks = 4 * Number(g) * Number(concurrency);
    writeFileSync(warmJobs, JSON.stringify({ reference: ref, distorted: dist, output: warm, args: [...args, "--frame_cnt", String(24 * warmChunks)] }) + "\n");
    await vqWhileWorking(["submit", "--redis", redis.url, "--chunk-frames", "24", "--wait", "-q", warmJobs], worker);
    const output = join(dir, `queue-${g}.json`);
    rmSync(output, { force: true });
    const jobs = join(dir, `queue-${g}.jsonl`);
    writeFileSync(jobs, line(output) + "\n");
    submitted = performance.now();
    return { ms: await vqWhileWorking(["submit", "--redis", redis.url, "--chunk-frames", chunkFrames, "--wait", "-q", jobs], worker), output };
  } finally {
    if (worker.exitCode === null) {
      const exited = new Promise((resolve) => worker.once("exit", resolve));
      worker.kill("SIGTERM");
      await exited;
    }
    await redis.close();
  }
}

function batched(g: string): { ms: number; output: string } {
  const output = join(dir, `batch-${g}.json`);
  rmSync(output, { force: true });
  const jobs = join(dir, `batch-${g}.jsonl`);
  writeFileSync(jobs, line(output) + "\n");
  return { ms: vq(["batch", jobs, "--gpus", g, "--chunk-frames", chunkFrames, "--concurrency", concurrency, "-q"]), output };
}

const expected = jsonWithoutFps(single);
const report = (what: string, r: { ms: number; output: string }) => {
  const same = jsonWithoutFps(r.output) === expected;
  console.log(`  ${what}: ${(r.ms / 1000).toFixed(2)} s (${(frames / (r.ms / 1000)).toFixed(0)} fps), output ${same ? "identical to the single run" : "DIFFERENT"}`);
  return same;
};
console.log(`one ${frames}-frame 1080p job (Y4M), chunks of ${chunkFrames}, ${concurrency} in flight per GPU, ${extra.join(" ") || "VMAF v0.6.1"}`);
console.log(`  single vq run: ${(singleMs / 1000).toFixed(2)} s (${(frames / (singleMs / 1000)).toFixed(0)} fps)`);
const b1 = batched("1");
const bg = batched(gpus);
const q1 = await queued("1");
const qg = await queued(gpus);
const ok = [report("vq batch --gpus 1", b1), report(`vq batch --gpus ${gpus}`, bg), report("queue, 1 worker (1 GPU)", q1), report(`queue, ${gpus} workers (${gpus} GPUs)`, qg)].every(Boolean);
console.log(`  speed-up with ${gpus} GPUs: vq batch ${(b1.ms / bg.ms).toFixed(2)}x, queue ${(q1.ms / qg.ms).toFixed(2)}x`);
if (!ok) process.exit(1);
