import { existsSync } from "node:fs";
import { VqError } from "@vq/core";
import { readJobFile } from "../batch/job-file.ts";
import type { CliIo } from "../run-setup.ts";
import { THRESHOLD_FAILED_EXIT_CODE } from "../thresholds/threshold-check.ts";
import { absoluteJobLine, DEFAULT_QUEUE, queuedJobId, SCORE_JOB, type QueuedJobData, type QueuedJobResult } from "./queued-job.ts";
import { loadBullmq, reachRedis, redisAddress, redisConnection } from "./redis-connection.ts";
import { optionValue, queueName } from "./worker-command.ts";

export const SUBMIT_USAGE = `Usage: vq submit --redis URL [--queue NAME] [--wait] [-q] JOBS.jsonl

Puts the jobs of a JOBS.jsonl file (the format of vq batch) on a BullMQ queue on Redis,
for vq worker processes on any machine to score. Relative paths are made absolute here:
workers must see the same files. A job whose outputs all exist is not submitted; a job
already queued is not queued twice.

      --redis URL          redis://[user:password@]host[:port][/db] (rediss:// for TLS)
      --queue NAME         the queue (default ${DEFAULT_QUEUE})
      --wait               wait until every job has finished: one line per failure;
                           exit 0 when all succeeded, 3 when only a --threshold failed, else 1
  -q, --quiet              only errors on stderr
      --help               this text
`;

interface SubmitSettings {
  redis?: string;
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
  let failed = 0;
  const toSubmit: QueuedJobData[] = [];
  let skipped = 0;
  for (const line of lines) {
    if (line.error) {
      failed++;
      io.stderr(`vq: ${line.where}: ${line.error.message}\n`);
    } else if (line.job.writes.every((p) => existsSync(p))) skipped++;
    else toSubmit.push({ where: line.where, line: absoluteJobLine(line.job.line, process.cwd()) });
  }
  const connection = redisConnection(s.redis!);
  const { Queue, QueueEvents } = await loadBullmq();
  const queue = new Queue<QueuedJobData, QueuedJobResult>(s.queue, { connection });
  const events = s.wait ? new QueueEvents(s.queue, { connection }) : undefined;
  // Connection errors are retried (reachRedis names a Redis that never answers); unheard, ioredis would print each one.
  queue.on("error", () => {});
  events?.on("error", () => {});
  try {
    await reachRedis(Promise.all([queue.waitUntilReady(), events?.waitUntilReady()]), connection);
    const jobs = [];
    for (const data of toSubmit) {
      const id = queuedJobId(data.line);
      // A finished job of the same id (its output since deleted, or it failed): replaced, so it runs again.
      const old = await queue.getJob(id);
      if (old && ((await old.isCompleted()) || (await old.isFailed()))) await old.remove();
      // retried on a worker's internal error or death; never for the job's own fault (the worker says so)
      jobs.push(await queue.add(SCORE_JOB, data, { jobId: id, attempts: 3, backoff: { type: "exponential", delay: 1000 } }));
    }
    if (!s.quiet) io.stderr(`vq: submitted ${toSubmit.length} job${toSubmit.length === 1 ? "" : "s"} to queue "${s.queue}" at ${redisAddress(connection)}${skipped ? ` (${skipped} already done)` : ""}\n`);
    if (!events) return failed ? 1 : 0;
    let belowThreshold = 0;
    for (const job of jobs) {
      try {
        const result = await job.waitUntilFinished(events);
        for (const l of result?.lines ?? []) io.stderr(`vq: ${l}\n`);
        if (result?.code === THRESHOLD_FAILED_EXIT_CODE) belowThreshold++;
      } catch (e) {
        failed++;
        for (const l of (e as Error).message.split("\n")) io.stderr(`vq: ${l}\n`);
      }
    }
    if (!s.quiet) io.stderr(`vq: ${jobs.length - (failed - lines.filter((l) => l.error).length)} of ${jobs.length} submitted jobs succeeded\n`);
    return failed ? 1 : belowThreshold ? THRESHOLD_FAILED_EXIT_CODE : 0;
  } finally {
    await events?.close();
    await queue.close();
  }
}
