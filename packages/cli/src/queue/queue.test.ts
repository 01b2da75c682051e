import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LIMITS } from "@vq/core";
import { loggingFfmpeg } from "@vq/core/testing";
import { goldenPairs, goldenPath } from "@vq/core/golden";
import { Queue } from "bullmq";
import { runVq } from "../testing/cli-run.ts";
import { redisInstalled, TestRedis } from "../testing/redis-server.ts";
import { redisConnection } from "./redis-connection.ts";
import { queuedJobId, absoluteJobLine } from "./queued-job.ts";
import { defaultDecoderThreads } from "../batch/batch-command.ts";
import { parseWorkerArgs, scoreQueuedChunk, scoreQueuedJob } from "./worker-command.ts";

const rungs = goldenPairs().filter((p) => p.reference.endsWith("nat_576x324.ref.y4m"));
const REF = goldenPath(rungs[0]!.reference);
const DISTS = rungs.map((p) => goldenPath(p.distorted));
const dir = mkdtempSync(join(tmpdir(), "vq-queue-"));
const cli = new URL("../cli.ts", import.meta.url).pathname;
const workers: ChildProcess[] = [];
let redis: TestRedis;

test("redis-server is installed (Debian: apt-get install redis-server)", () => {
  expect(redisInstalled, "no redis-server on PATH: npm test installs it, or apt-get install redis-server").toBe(true);
});

beforeAll(async () => {
  if (redisInstalled) redis = await TestRedis.start();
});
afterAll(async () => {
  for (const w of workers) w.kill("SIGKILL");
  await redis?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A `vq worker` process; resolves once it takes jobs. Its stderr is kept in `log`. */
async function startWorker(...args: string[]): Promise<{ process: ChildProcess; log: () => string }> {
  const p = spawn(process.execPath, [cli, "worker", "--redis", redis.url, ...args], { stdio: ["ignore", "ignore", "pipe"] });
  workers.push(p);
  let log = "";
  p.stderr!.on("data", (d: Buffer) => (log += d.toString()));
  for (let i = 0; i < 200 && !log.includes("taking jobs"); i++) await Bun.sleep(50);
  if (!log.includes("taking jobs")) throw new Error(`worker did not start: ${log}`);
  return { process: p, log: () => log };
}

function jobFile(name: string, jobs: readonly object[]): string {
  const path = join(dir, name);
  writeFileSync(path, jobs.map((j) => JSON.stringify(j)).join("\n") + "\n");
  return path;
}

const withoutFps = (path: string) => readFileSync(path, "utf8").replace(/^ {2}"fps": .*\n/m, "");

/** What `vq` alone writes for a job (its output compared with the queue's, fps aside). */
async function single(args: readonly string[], distorted: string, output: string): Promise<string> {
  const r = await runVq([...args, "-r", REF, "-d", distorted, "-o", output]);
  expect(r.code).toBe(0);
  return withoutFps(output);
}

describe.skipIf(!redisInstalled)("vq submit and vq worker on a BullMQ queue", () => {
  test("two workers score the jobs; each output is a single run's; a job at fault fails once with its error", async () => {
    await startWorker("--queue", "a");
    await startWorker("--queue", "a", "--concurrency", "1");
    const args = ["--backend", "cpu", "--frame_cnt", "4", "--json", "--precision", "max", "--feature", "psnr"];
    const jobs = DISTS.map((d, i) => ({ reference: REF, distorted: d, output: join(dir, `a-${i}.json`), args }));
    const missing = join(dir, "missing.y4m");
    const file = jobFile("a.jsonl", [...jobs, { reference: REF, distorted: missing, output: join(dir, "never.json"), args }]);
    const r = await runVq(["submit", "--redis", redis.url, "--queue", "a", "--wait", file]);
    expect(r.stderr.split("\n")).toEqual([`vq: submitted 4 jobs to queue "a" at 127.0.0.1:${redis.port}`, `vq: ${file}:4: ${missing}: no such file`, "vq: 3 of 4 submitted jobs succeeded", ""]);
    expect(r.code).toBe(1);
    for (const [i, d] of DISTS.entries()) expect(withoutFps(join(dir, `a-${i}.json`))).toBe(await single(args, d, join(dir, `single-a-${i}.json`)));
    // the failed job was tried once: its input is at fault
    const queue = new Queue("a", { connection: redisConnection(redis.url) });
    const failedJob = await queue.getJob(queuedJobId(absoluteJobLine({ reference: REF, distorted: missing, output: join(dir, "never.json"), args }, dir)));
    expect(failedJob!.attemptsMade).toBe(1);
    expect(await failedJob!.isFailed()).toBe(true);
    await queue.close();
    // submitted again: the finished jobs are not, the failed one is tried again
    const again = await runVq(["submit", "--redis", redis.url, "--queue", "a", "--wait", "-q", file]);
    expect(again.stderr).toBe(`vq: ${file}:4: ${missing}: no such file\n`);
    expect(again.code).toBe(1);
  }, 120_000);

  test("a worker killed (kill -9) mid-job: another takes the job once its lock lapses, and the output is a single run's", async () => {
    const args = ["--backend", "cpu", "--json", "--precision", "max", "--feature", "float_ssim"];
    const output = join(dir, "killed.json");
    const file = jobFile("killed.jsonl", [{ reference: REF, distorted: DISTS[1], output, args }]);
    const first = await startWorker("--queue", "k", "--lock-duration", "1000", "--concurrency", "1");
    expect((await runVq(["submit", "--redis", redis.url, "--queue", "k", file])).code).toBe(0);
    const queue = new Queue("k", { connection: redisConnection(redis.url) });
    const job = (await queue.getJobs(["active", "waiting"]))[0]!;
    for (let i = 0; i < 200 && (await job.getState()) !== "active"; i++) await Bun.sleep(25);
    expect(await job.getState()).toBe("active");
    first.process.kill("SIGKILL");
    await new Promise((resolve) => first.process.once("exit", resolve));
    const second = await startWorker("--queue", "k", "--lock-duration", "1000");
    const r = await runVq(["submit", "--redis", redis.url, "--queue", "k", "--wait", "-q", file]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    // the worker's line may come a moment after the job is marked done
    for (let i = 0; i < 100 && !second.log().includes(`${file}:1: scored`); i++) await Bun.sleep(50);
    expect(second.log()).toContain(`${file}:1: scored`);
    expect(withoutFps(output)).toBe(await single(args, DISTS[1]!, join(dir, "single-killed.json")));
    await queue.close();
  }, 120_000);

  test("--chunk-frames: a job in frame ranges over two workers, one killed (kill -9) mid-chunk; the merged output is the single run's", async () => {
    const args = ["--backend", "cpu", "--json", "--precision", "max", "--feature", "psnr=enable_apsnr=true", "--feature", "float_ms_ssim"];
    const output = join(dir, "chunked.json");
    const file = jobFile("chunked.jsonl", [{ reference: REF, distorted: DISTS[0], output, args }]);
    const first = await startWorker("--queue", "c", "--lock-duration", "1000", "--concurrency", "1");
    expect((await runVq(["submit", "--redis", redis.url, "--queue", "c", "--chunk-frames", "10", file])).code).toBe(0);
    const queue = new Queue("c", { connection: redisConnection(redis.url) });
    const chunkJobs = (await queue.getJobs(["waiting", "active", "waiting-children"])).filter((j) => j.name === "chunk");
    expect(chunkJobs.map((j) => j.data.range).sort((a, b) => a.start - b.start)).toEqual([
      { start: 0, end: 10, last: false },
      { start: 10, end: 20, last: false },
      { start: 20, end: 24, last: true },
    ]);
    for (let i = 0; i < 200 && !(await queue.getJobs(["active"])).length; i++) await Bun.sleep(25);
    first.process.kill("SIGKILL");
    await new Promise((resolve) => first.process.once("exit", resolve));
    await startWorker("--queue", "c", "--lock-duration", "1000");
    await startWorker("--queue", "c", "--lock-duration", "1000");
    const r = await runVq(["submit", "--redis", redis.url, "--queue", "c", "--chunk-frames", "10", "--wait", "-q", file]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(withoutFps(output)).toBe(await single(args, DISTS[0]!, join(dir, "single-chunked.json")));
    await queue.close();
  }, 120_000);

  test("Redis restarted: the workers reconnect and take the jobs submitted after", async () => {
    const worker = await startWorker("--queue", "r");
    await redis.restart();
    const args = ["--backend", "cpu", "--frame_cnt", "2", "--json"];
    const output = join(dir, "after-restart.json");
    const r = await runVq(["submit", "--redis", redis.url, "--queue", "r", "--wait", "-q", jobFile("r.jsonl", [{ reference: REF, distorted: DISTS[0], output, args }])]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(output, "utf8")).frames).toHaveLength(2);
    // the one worker on this queue, started before the restart, scored it
    for (let i = 0; i < 100 && !worker.log().includes("r.jsonl:1: scored"); i++) await Bun.sleep(50);
    expect(worker.log()).toContain("r.jsonl:1: scored");
  }, 120_000);

  test("bad options and an unreachable Redis: one line each, exit 1", async () => {
    const file = jobFile("one.jsonl", [{ reference: REF, distorted: DISTS[0], output: join(dir, "x.json") }]);
    for (const [args, message] of [
      [["submit", file], "vq: vq submit needs --redis URL (see vq submit --help)\n"],
      [["submit", "--redis", "http://x", file], `vq: invalid argument "http://x" for --redis: expected redis:// or rediss://\n`],
      [["submit", "--redis", redis.url, "--queue", "a b", file], `vq: invalid argument "a b" for --queue: expected letters, digits, _ . or - (at most 100)\n`],
      [["worker", "--redis", redis.url, "--lock-duration", "10"], `vq: invalid argument "10" for --lock-duration: at least 1000 ms (a job's lock is renewed every half of it)\n`],
      [["worker"], "vq: vq worker needs --redis URL (see vq worker --help)\n"],
      [["worker", "--redis", redis.url, "--decoder-threads", "-1"], `vq: invalid argument "-1" for --decoder-threads: expected an integer from 0 to ${LIMITS.threads}\n`],
    ] as const) {
      const r = await runVq(args);
      expect(r.stderr).toBe(message);
      expect(r.code).toBe(1);
    }
    const closed = await TestRedis.start();
    await closed.close();
    const r = await runVq(["submit", "--redis", closed.url, file]);
    expect(r.stderr).toBe(`vq: cannot reach Redis at 127.0.0.1:${closed.port} (no answer in 5 s)\n`);
    expect(r.code).toBe(1);
  }, 60_000);
});

const ffmpegOnPath = spawnSync("sh", ["-c", "command -v ffmpeg"]).stdout.toString().trim();

describe.skipIf(!ffmpegOnPath)("vq worker and ffmpeg's decoding threads", () => {
  test("a queued job's and a chunk's inputs get the worker's -threads; a job's own --decoder-threads wins; the default shares the CPUs", async () => {
    expect(parseWorkerArgs(["--redis", "redis://h", "--decoder-threads", "3"]).decoderThreads).toBe(3);
    expect(parseWorkerArgs(["--redis", "redis://h"]).decoderThreads).toBeUndefined();
    expect(defaultDecoderThreads(2, 1, 16)).toBe(4);
    // an ffmpeg that notes its arguments, then decodes as ffmpeg does
    const logging = await loggingFfmpeg(dir);
    const wrapper = logging.path;
    const mkv = join(dir, "threads.mkv");
    spawnSync(ffmpegOnPath, ["-v", "error", "-i", DISTS[0]!, "-frames:v", "4", "-c:v", "ffv1", "-y", mkv]);
    const threadsOf = async (jobArgs: string[], workerThreads: number | undefined, chunk: boolean) => {
      logging.clear();
      const line = { reference: REF, distorted: mkv, output: join(dir, `threads-${jobArgs.join("")}-${workerThreads}-${chunk}.json`), args: ["--backend", "cpu", "--ffmpeg", wrapper, "--feature", "psnr", "-n", "--json", ...jobArgs] };
      const data = { where: "jobs.jsonl:1", line };
      if (chunk) await scoreQueuedChunk({ ...data, range: { start: 0, end: 2, last: false } }, workerThreads);
      else expect((await scoreQueuedJob(data, workerThreads)).code).toBe(0);
      const decodes = logging.decodes();
      expect(decodes.length).toBe(1);
      return /-threads (\d+) .*-i /.exec(decodes[0]!)?.[1];
    };
    expect(await threadsOf([], 3, false)).toBe("3");
    expect(await threadsOf(["--decoder-threads", "5"], 3, false)).toBe("5");
    expect(await threadsOf([], 3, true)).toBe("3");
    expect(await threadsOf(["--decoder-threads", "5"], 3, true)).toBe("5");
    expect(await threadsOf([], undefined, false)).toBeUndefined();
  }, 60_000);
});
