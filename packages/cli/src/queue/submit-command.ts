import { VqError } from "@vq/core";
import { jobFromObject, readJobFile, sortJobs } from "../batch/job-file.ts";
import type { CliIo } from "../run-setup.ts";
import { THRESHOLD_FAILED_EXIT_CODE } from "../thresholds/threshold-check.ts";
import type { Job } from "bullmq";
import { jobChunks } from "../batch/job-chunks.ts";
import { absoluteJobLine, CHUNK_JOB, chunkJobId, DEFAULT_QUEUE, MERGE_JOB, queuedJobId, SCORE_JOB, type QueuedJobData, type QueuedJobResult } from "./queued-job.ts";
import { loadBullmq, reachRedis, redisAddress, redisConnection } from "./redis-connection.ts";
import { optionValue, positiveInteger, queueName } from "./worker-command.ts";

export const SUBMIT_USAGE = `Usage: vq submit --redis URL [--queue NAME] [--chunk-frames N] [--wait] [-q] JOBS.jsonl

Puts the jobs of a JOBS.jsonl file (the format of vq batch) on a BullMQ queue on Redis,
for vq worker processes on any machine to score. Relative paths are made absolute here:
workers must see the same files. A job whose outputs all exist is not submitted; a job
already queued is not queued twice.

      --redis URL          redis://[user:password@]host[:port][/db] (rediss:// for TLS)
      --queue NAME         the queue (default ${DEFAULT_QUEUE})
      --chunk-frames N     split each job longer than N frames into ranges of N frames that
                           any worker scores; a last step merges them into exactly the
                           single run's output (a ladder, --align, or inputs whose length is
                           not known beforehand are queued whole)
      --wait               wait until every job has finished: one line per failure;
                           exit 0 when all succeeded, 3 when only a --threshold failed, else 1
  -q, --quiet              only errors on stderr
      --help               this text
`;

interface SubmitSettings {
  redis?: string;
  /** --chunk-frames: longer jobs go in frame ranges of this many frames. */
  chunkFrames?: number;
  queue: string;
  wait: boolean;
  quiet: boolean;
  help: boolean;
  jobs?: string;
}

export function parseSubmitArgs(argv: readonly string[]): SubmitSettings {
  const s: SubmitSettings = { queue: DEFAULT_QUEUE, wait: false, quiet: false, help: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const name = arg.split("=")[0]!;
    let v: string;
    if (arg === "--help") s.help = true;
    else if (arg === "--wait") s.wait = true;
    else if (arg === "-q" || arg === "--quiet") s.quiet = true;
    else if (name === "--redis") [s.redis, i] = optionValue(argv, i, name);
    else if (name === "--queue") {
      [v, i] = optionValue(argv, i, name);
      s.queue = queueName(v);
    } else if (name === "--chunk-frames") {
      [v, i] = optionValue(argv, i, name);
      s.chunkFrames = positiveInteger(name, v, 10_000_000);
    } else if (arg.startsWith("-")) throw new VqError(`unknown option ${arg} for vq submit (see vq submit --help)`);
    else if (s.jobs !== undefined) throw new VqError(`unexpected argument "${arg}": vq submit takes one JOBS.jsonl file`);
    else s.jobs = arg;
  }
  if (s.help) return s;
  if (!s.redis) throw new VqError("vq submit needs --redis URL (see vq submit --help)");
  if (s.jobs === undefined) throw new VqError("vq submit needs a jobs file: vq submit --redis URL JOBS.jsonl");
  return s;
}

/** `vq submit`: returns the exit code. */
export async function submitCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const s = parseSubmitArgs(argv);
  if (s.help) {
    io.stdout(SUBMIT_USAGE);
    return 0;
  }
  const lines = readJobFile(s.jobs!);
  const { invalid, done, pending } = sortJobs(lines);
  let failed = invalid.length;
  for (const line of invalid) io.stderr(`vq: ${line.where}: ${line.error.message}\n`);
  const skipped = done.length;
  const toSubmit: QueuedJobData[] = pending.map((job) => ({ where: job.where, line: absoluteJobLine(job.line, process.cwd()) }));
  const connection = redisConnection(s.redis!);
  const { Queue, QueueEvents, FlowProducer } = await loadBullmq();
  const queue = new Queue<QueuedJobData, QueuedJobResult>(s.queue, { connection });
  const flows = new FlowProducer({ connection });
  flows.on("error", () => {});
  const events = s.wait ? new QueueEvents(s.queue, { connection }) : undefined;
  // Connection errors are retried (reachRedis names a Redis that never answers); unheard, ioredis would print each one.
  queue.on("error", () => {});
  events?.on("error", () => {});
  try {
    await reachRedis(Promise.all([queue.waitUntilReady(), events?.waitUntilReady()]), connection);
    const jobs: { job: Job<QueuedJobData, QueuedJobResult>; data: QueuedJobData; chunks?: string[] }[] = [];
    for (const data of toSubmit) {
      const id = queuedJobId(data.line);
      const ranges = s.chunkFrames ? await jobChunks(jobFromObject(data.line, data.where), s.chunkFrames) : undefined;
      // A finished job of the same id (its output since deleted, or it failed), and its chunks: replaced, so it runs again.
      for (const jobId of [id, ...(ranges ?? []).map((r) => chunkJobId(id, r))]) {
        const old = await queue.getJob(jobId);
        if (old && ((await old.isCompleted()) || (await old.isFailed()))) await old.remove();
      }
      // retried on a worker's internal error or death; never for the job's own fault (the worker says so)
      const retries = { attempts: 3, backoff: { type: "exponential", delay: 1000 } };
      if (!ranges || ranges.length < 2) {
        jobs.push({ job: await queue.add(SCORE_JOB, data, { jobId: id, ...retries }), data });
        continue;
      }
      // a parent that merges once every chunk is in: a chunk that fails fails it (ADR 0038)
      const children = ranges.map((range) => ({ name: CHUNK_JOB, queueName: s.queue, data: { ...data, range }, opts: { jobId: chunkJobId(id, range), failParentOnFailure: true, ...retries } }));
      const node = await flows.add({ name: MERGE_JOB, queueName: s.queue, data, opts: { jobId: id, ...retries }, children });
      jobs.push({ job: node.job as Job<QueuedJobData, QueuedJobResult>, data, chunks: ranges.map((r) => chunkJobId(id, r)) });
    }
    if (!s.quiet) io.stderr(`vq: submitted ${toSubmit.length} job${toSubmit.length === 1 ? "" : "s"} to queue "${s.queue}" at ${redisAddress(connection)}${skipped ? ` (${skipped} already done)` : ""}\n`);
    if (!events) return failed ? 1 : 0;
    let belowThreshold = 0;
    for (const { job, data, chunks } of jobs) {
      try {
        const result = await job.waitUntilFinished(events);
        for (const l of result?.lines ?? []) io.stderr(`vq: ${l}\n`);
        if (result?.code === THRESHOLD_FAILED_EXIT_CODE) belowThreshold++;
      } catch (e) {
        failed++;
        // a chunked job fails with its chunk's failure: that one's message says why
        const reasons = await Promise.all((chunks ?? []).map(async (c) => (await queue.getJob(c))?.failedReason));
        const reason = reasons.find(Boolean) ?? (e as Error).message;
        for (const l of reason.split("\n")) io.stderr(`vq: ${l.startsWith(data.where) ? l : `${data.where}: ${l}`}\n`);
      }
    }
    if (!s.quiet) io.stderr(`vq: ${jobs.length - (failed - invalid.length)} of ${jobs.length} submitted jobs succeeded\n`);
    return failed ? 1 : belowThreshold ? THRESHOLD_FAILED_EXIT_CODE : 0;
  } finally {
    await events?.close();
    await flows.close();
    await queue.close();
  }
}

