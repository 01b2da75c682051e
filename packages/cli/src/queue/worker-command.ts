import { isVqError, LIMITS, trackChildProcess, VqError } from "@vq/core";
import { scoreBatch, scoreChunk, type BatchJobOutcome, type ChunkScores, type ScoreRequest } from "@vq/score";
import { jobFromObject, type BatchJobSpec } from "../batch/job-file.ts";
import { jobRequest, writeJobOutcome } from "../batch/job-run.ts";
import { mergedOutcome } from "../batch/job-chunks.ts";
import { defaultConcurrency, defaultDecoderThreads } from "../batch/batch-command.ts";
import type { CliIo } from "../run-setup.ts";
import { gpuEnvironment, listGpus, parseGpus, type PciGpu } from "../gpus/gpu-devices.ts";
import { CHUNK_JOB, DEFAULT_QUEUE, MERGE_JOB, SCORE_JOB, type QueuedJobData, type QueuedJobResult } from "./queued-job.ts";
import { loadBullmq, reachRedis, redisAddress, redisConnection } from "./redis-connection.ts";

export const WORKER_USAGE = `Usage: vq worker --redis URL [--queue NAME] [--concurrency N] [--decoder-threads N] [--gpus all|N|LIST] [--lock-duration MS] [-q]

Takes jobs from a BullMQ queue on Redis (put there by vq submit) and scores them, until
stopped (SIGINT/SIGTERM). Inputs and outputs are paths every worker sees (a shared
filesystem, an object-store mount) or URLs ffmpeg reads. A job whose input is at fault
fails with its error and is not retried; a worker killed mid-job leaves its job to be
taken by another worker once its lock lapses, and the result is the same.

      --redis URL          redis://[user:password@]host[:port][/db] (rediss:// for TLS)
      --queue NAME         the queue (default ${DEFAULT_QUEUE})
      --concurrency N      jobs in flight at once in this process (default, as vq batch: half
                           the CPUs, as each job runs two decoders, shared among the GPUs of
                           --gpus; 2 to 8). They share the GPU
      --decoder-threads N  ffmpeg's decoding threads per input (-threads N; 0: ffmpeg's own,
                           about one a core); default: the CPUs over the decoders in flight
                           on this host, at least 2. A job's own --decoder-threads wins
      --gpus all|N|LIST    one worker process per GPU (every GPU, the first N, or a comma list
                           of indexes or PCI bus ids), each pinned to its own
      --lock-duration MS   how long a job stays taken without word from its worker; a
                           killed worker's job goes to another after this (default 30000)
  -q, --quiet              only errors on stderr
      --help               this text
`;

export interface WorkerSettings {
  redis?: string;
  queue: string;
  /** --concurrency; undefined: defaultConcurrency() over the processes of --gpus. */
  concurrency?: number;
  lockDuration: number;
  quiet: boolean;
  help: boolean;
  /** --gpus: one worker process per GPU. */
  gpus?: string;
  /** --decoder-threads; undefined: defaultDecoderThreads() over the jobs in flight on the host. */
  decoderThreads?: number;
}

/** Reads `--name VALUE` / `--name=VALUE` options; returns the value and the index after it. */
export function optionValue(argv: readonly string[], i: number, name: string): [string, number] {
  const arg = argv[i]!;
  if (arg.startsWith(`${name}=`)) return [arg.slice(name.length + 1), i];
  const v = argv[i + 1];
  if (v === undefined) throw new VqError(`option ${name} needs a value`);
  return [v, i + 1];
}

export function positiveInteger(name: string, v: string, max: number): number {
  if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > max) throw new VqError(`invalid argument "${v}" for ${name}: expected an integer from 1 to ${max}`);
  return Number(v);
}

export function queueName(v: string): string {
  if (!/^[A-Za-z0-9_.-]{1,100}$/.test(v)) throw new VqError(`invalid argument "${v}" for --queue: expected letters, digits, _ . or - (at most 100)`);
  return v;
}

export function parseWorkerArgs(argv: readonly string[]): WorkerSettings {
  const w: WorkerSettings = { queue: DEFAULT_QUEUE, lockDuration: 30_000, quiet: false, help: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const name = arg.split("=")[0]!;
    let v: string;
    if (arg === "--help") w.help = true;
    else if (arg === "-q" || arg === "--quiet") w.quiet = true;
    else if (name === "--redis") [w.redis, i] = optionValue(argv, i, name);
    else if (name === "--gpus") [w.gpus, i] = optionValue(argv, i, name);
    else if (name === "--queue") {
      [v, i] = optionValue(argv, i, name);
      w.queue = queueName(v);
    } else if (name === "--concurrency") {
      [v, i] = optionValue(argv, i, name);
      w.concurrency = positiveInteger(name, v, 64);
    } else if (name === "--decoder-threads") {
      [v, i] = optionValue(argv, i, name);
      if (!/^\d+$/.test(v) || Number(v) > LIMITS.threads) throw new VqError(`invalid argument "${v}" for --decoder-threads: expected an integer from 0 to ${LIMITS.threads}`);
      w.decoderThreads = Number(v);
    } else if (name === "--lock-duration") {
      [v, i] = optionValue(argv, i, name);
      w.lockDuration = positiveInteger(name, v, 3_600_000);
      if (w.lockDuration < 1000) throw new VqError(`invalid argument "${v}" for --lock-duration: at least 1000 ms (a job's lock is renewed every half of it)`);
    } else throw new VqError(`unknown argument ${arg} for vq worker (see vq worker --help)`);
  }
  if (!w.help && !w.redis) throw new VqError("vq worker needs --redis URL (see vq worker --help)");
  return w;
}

/**
 * Scores one queued job and writes its outputs; a job at fault is a VqError (not retried).
 * `decoderThreads`: ffmpeg's threads per input where the job's args set none.
 */
export async function scoreQueuedJob(data: QueuedJobData, decoderThreads?: number): Promise<QueuedJobResult> {
  const spec = jobFromObject(data.line, data.where);
  let done: BatchJobOutcome | undefined;
  for await (const d of scoreBatch([jobRequest(spec)], { concurrency: 1, decoderThreads })) done = d;
  return writeQueuedOutcome(spec, done!);
}

/** Writes a scored job's outputs; its lines are the result (or, when it failed, the VqError). */
async function writeQueuedOutcome(spec: BatchJobSpec, done: BatchJobOutcome): Promise<QueuedJobResult> {
  const lines: string[] = [];
  const io: CliIo = { stdout: () => {}, stderr: (t) => void lines.push(...t.split("\n").filter(Boolean).map((l) => l.replace(/^vq: /, ""))), stderrIsTty: false };
  const code = await writeJobOutcome(spec, done, io);
  if (code === 1) throw new VqError(lines.join("\n"));
  return { code, lines };
}

/** Scores a chunk of a queued job (CHUNK_JOB): its features, for the merge. */
export async function scoreQueuedChunk(data: QueuedJobData, decoderThreads?: number): Promise<ChunkScores> {
  const spec = jobFromObject(data.line, data.where);
  const request = jobRequest(spec) as ScoreRequest;
  return scoreChunk({ ...request, decoderThreads: request.decoderThreads ?? decoderThreads }, data.range!);
}

/** A chunked job's merge (MERGE_JOB): its chunks' features into the run's summary, written as `vq` writes it. */
export async function mergeQueuedChunks(data: QueuedJobData, chunks: ChunkScores[]): Promise<QueuedJobResult> {
  const spec = jobFromObject(data.line, data.where);
  const t0 = performance.now();
  return writeQueuedOutcome(spec, await mergedOutcome(spec, chunks, (performance.now() - t0) / 1000));
}

/** `vq worker`: runs until a signal stops the process. */
export async function workerCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const w = parseWorkerArgs(argv);
  if (w.help) {
    io.stdout(WORKER_USAGE);
    return 0;
  }
  const connection = redisConnection(w.redis!);
  if (w.gpus !== undefined) {
    const gpus = parseGpus(w.gpus, listGpus());
    // every GPU's worker shares the host's CPUs: its jobs in flight, and their decoders
    const concurrency = w.concurrency ?? defaultConcurrency(gpus.length);
    const threads = w.decoderThreads ?? defaultDecoderThreads(concurrency, gpus.length);
    const given = (name: string) => (a: string, i: number) => a === name || a.startsWith(`${name}=`) || argv[i - 1] === name;
    const own = argv.filter((a, i) => !given("--decoder-threads")(a, i) && !given("--concurrency")(a, i));
    return workersOnGpus(gpus, [...own, "--concurrency", String(concurrency), "--decoder-threads", String(threads)], io);
  }
  const concurrency = w.concurrency ?? defaultConcurrency();
  const decoderThreads = w.decoderThreads ?? defaultDecoderThreads(concurrency);
  const { Worker, UnrecoverableError } = await loadBullmq();
  const say = (line: string) => {
    if (!w.quiet) io.stderr(`vq: worker: ${line}\n`);
  };
  const worker = new Worker<QueuedJobData, QueuedJobResult | ChunkScores>(
    w.queue,
    async (job) => {
      try {
        if (job.name === SCORE_JOB) return await scoreQueuedJob(job.data, decoderThreads);
        if (job.name === CHUNK_JOB) return await scoreQueuedChunk(job.data, decoderThreads);
        if (job.name === MERGE_JOB) return await mergeQueuedChunks(job.data, Object.values(await job.getChildrenValues<ChunkScores>()));
        throw new UnrecoverableError(`unknown job kind "${job.name}" (a newer vq submitted it?)`);
      } catch (e) {
        // the job's own fault: retrying cannot help
        if (isVqError(e)) throw new UnrecoverableError(e.message);
        throw e;
      }
    },
    { connection, concurrency, lockDuration: w.lockDuration, stalledInterval: w.lockDuration, maxStalledCount: 3, autorun: false },
  );
  worker.on("completed", (job) => say(`${job.data.where}: ${job.name === CHUNK_JOB ? `frames ${job.data.range!.start} to ${job.data.range!.end} scored` : job.name === MERGE_JOB ? "chunks merged, written" : "scored"}`));
  // a job's own failure names it (FILE:LINE: ...) already
  worker.on("failed", (job, e) => io.stderr(`vq: worker: ${isVqError(e) || e.name === "UnrecoverableError" ? "" : `${job?.data.where ?? "a job"}: `}${e.message.split("\n").join("; ")}\n`));
  // ioredis reports each failed reconnection: one line per outage is enough
  let down = false;
  worker.on("error", (e) => {
    if (down) return;
    down = true;
    io.stderr(`vq: worker: Redis at ${redisAddress(connection)}: ${e.message}; reconnecting\n`);
  });
  worker.on("ready", () => (down = false));
  await reachRedis(worker.waitUntilReady(), connection);
  say(`taking jobs from queue "${w.queue}" at ${redisAddress(connection)} (${concurrency} at once)`);
  await worker.run();
  return 0;
}

/**
 * `vq worker --gpus`: one `vq worker` process per GPU, each pinned to its own (ADR 0037),
 * with the same options. Returns when one of them ends (the others are stopped): a worker
 * only ends on a fault or a signal.
 */
async function workersOnGpus(gpus: readonly PciGpu[], argv: readonly string[], io: CliIo): Promise<number> {
  const { spawn } = await import("node:child_process");
  const own = argv.filter((a, i) => !(a === "--gpus" || a.startsWith("--gpus=") || argv[i - 1] === "--gpus"));
  const children = gpus.map((g) => {
    const child = spawn(process.execPath, [process.argv[1]!, "worker", ...own], { env: { ...process.env, ...gpuEnvironment(g) }, stdio: ["ignore", "inherit", "inherit"] });
    trackChildProcess(child);
    return { gpu: g, child };
  });
  const first = await Promise.race(children.map(({ gpu, child }) => new Promise<[PciGpu, number | null, NodeJS.Signals | null]>((resolve) => child.once("close", (code, signal) => resolve([gpu, code, signal])))));
  io.stderr(`vq: worker: the worker for GPU ${first[0].busId} ended (${first[2] ?? `exit code ${first[1]}`}); stopping the others\n`);
  for (const { child } of children) child.kill("SIGTERM");
  return first[1] === 0 ? 1 : (first[1] ?? 1);
}
