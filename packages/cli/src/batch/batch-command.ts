import { availableParallelism } from "node:os";
import { isVqError, LIMITS, VqError } from "@vq/core";
import { DEFAULT_BATCH_CONCURRENCY, scoreBatch, type ChunkScores } from "@vq/score";
import type { CliIo } from "../run-setup.ts";
import { THRESHOLD_FAILED_EXIT_CODE } from "../thresholds/threshold-check.ts";
import { BatchProgress } from "./batch-progress.ts";
import { readJobFile, sortJobs, type BatchJobSpec } from "./job-file.ts";
import { jobRequest, writeJobOutcome } from "./job-run.ts";
import { batchChild } from "./batch-child.ts";
import { gpuEnvironment, listGpus, parseGpus } from "../gpus/gpu-devices.ts";
import { scoreOnProcesses, type ChildJob, type ChildSlot } from "../gpus/gpu-processes.ts";
import { jobChunks, mergedOutcome } from "./job-chunks.ts";

export const BATCH_USAGE = `Usage: vq batch JOBS.jsonl [--concurrency N] [--decoder-threads N] [--gpus all|N|LIST [--chunk-frames N]] [-q]

Scores many jobs in one process: the GPU device and its kernels are set up once, and the
next job's inputs are opened and decoded while the one before it computes. JOBS.jsonl
holds one JSON object per line:

  {"reference": "ref.y4m", "distorted": "a.mp4", "output": "a.json", "args": ["--json"]}
  {"reference": "ref.y4m", "distorted": ["b.mp4", "c.mp4"], "output": "{name}.xml"}

"args" takes any per-run arguments of vq (models, features, formats, --threshold,
--report, ...). Each output is what \`vq\` with those arguments writes (fps aside). A job
whose outputs (and report) all exist is skipped, so a batch that stopped is resumed by
running it again; delete an output to score its job again. A job that fails is reported
(FILE:LINE: message) and the others still run.

      --concurrency N   jobs in flight at once, per GPU with --gpus (default: half the CPUs,
                        as each job runs two decoders, shared among the GPUs; 2 to 8)
      --decoder-threads N
                        ffmpeg's decoding threads per input (-threads N; 0: ffmpeg's own,
                        about one a core); default: the CPUs over the decoders in flight,
                        at least 2. A job's own --decoder-threads wins
      --gpus all|N|LIST every GPU of the host, the first N, or a comma list of indexes or
                        PCI bus ids: one process per GPU, each job to the next free one
                        (Linux, Mesa's Vulkan device-select layer: docs/batch.md)
      --chunk-frames N  with --gpus: a job longer than N frames is scored in ranges of N
                        frames spread over the GPUs, merged into exactly the whole run's
                        output (each range also reads the frames motion needs before it)
  -q, --quiet           only errors on stderr (no progress, no notes, no summary)
      --help            this text

Exit status: 0 every job scored or already done; 1 a job failed; 3 none failed but a
--threshold did; 129, 130, 143 stopped by a signal (finished jobs' outputs are kept).
`;

interface BatchSettings {
  jobs?: string;
  /** --concurrency; undefined: defaultConcurrency(). */
  concurrency?: number;
  quiet: boolean;
  help: boolean;
  /** --gpus: one process per GPU. */
  gpus?: string;
  /** --chunk-frames: under --gpus, longer jobs go out in frame ranges of this many frames. */
  chunkFrames?: number;
  /** One GPU's process under --gpus (batch-child.ts). */
  child: boolean;
  /** --decoder-threads; undefined: defaultDecoderThreads(). */
  decoderThreads?: number;
}

export function parseBatchArgs(argv: readonly string[]): BatchSettings {
  const b: BatchSettings = { quiet: false, help: false, child: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--help") b.help = true;
    else if (arg === "-q" || arg === "--quiet") b.quiet = true;
    else if (arg === "--child") b.child = true;
    else if (arg === "--gpus" || arg.startsWith("--gpus=")) {
      b.gpus = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : argv[++i];
      if (!b.gpus) throw new VqError("option --gpus needs a value: all, a count, or a list of GPUs");
    }
    else if (arg === "--chunk-frames" || arg.startsWith("--chunk-frames=")) {
      const v = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : argv[++i];
      if (v === undefined || !/^\d+$/.test(v) || Number(v) < 1 || Number(v) > 10_000_000) throw new VqError(`invalid argument "${v ?? ""}" for --chunk-frames: expected an integer from 1 to 10000000`);
      b.chunkFrames = Number(v);
    } else if (arg === "--concurrency" || arg.startsWith("--concurrency=")) {
      const v = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : argv[++i];
      if (v === undefined || !/^\d+$/.test(v) || Number(v) < 1 || Number(v) > 64) throw new VqError(`invalid argument "${v ?? ""}" for --concurrency: expected an integer from 1 to 64`);
      b.concurrency = Number(v);
    } else if (arg === "--decoder-threads" || arg.startsWith("--decoder-threads=")) {
      const v = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : argv[++i];
      if (v === undefined || !/^\d+$/.test(v) || Number(v) > LIMITS.threads) throw new VqError(`invalid argument "${v ?? ""}" for --decoder-threads: expected an integer from 0 to ${LIMITS.threads}`);
      b.decoderThreads = Number(v);
    } else if (arg.startsWith("-")) throw new VqError(`unknown option ${arg} for vq batch (see vq batch --help)`);
    else if (b.jobs !== undefined) throw new VqError(`unexpected argument "${arg}": vq batch takes one JOBS.jsonl file`);
    else b.jobs = arg;
  }
  if (b.chunkFrames !== undefined && b.gpus === undefined) throw new VqError("option --chunk-frames splits long jobs over GPUs: give --gpus too (in one process a job is scored whole)");
  if (!b.help && !b.child && b.jobs === undefined) throw new VqError("vq batch needs a jobs file: vq batch JOBS.jsonl (see vq batch --help)");
  return b;
}

/**
 * Jobs in flight at once in one process when --concurrency is not given: half the CPUs, as
 * each job's reference and distorted inputs are decoded at once (ffmpeg inputs), shared among
 * the processes of --gpus, within 2 to 8. Measured on one H200 with 16 CPUs, 60 two-second
 * 1080p H.264 jobs: 2 in flight 3.6x separate runs, 4 5.0x, 8 6.1x (docs/performance.md).
 */
export function defaultConcurrency(processes = 1, cpus = availableParallelism()): number {
  return Math.max(DEFAULT_BATCH_CONCURRENCY, Math.min(8, Math.floor(cpus / (2 * processes))));
}

/**
 * ffmpeg's decoding threads per input when --decoder-threads is not given: the CPUs over
 * the decoders in flight (two a job), at least 2. ffmpeg's own default, about one thread a
 * core for every decoder, left 16 busy decoders on 16 CPUs decoding fewer frames in all:
 * 200 two-second 1080p H.264 jobs at 8 in flight on one H200 host took 27.1 s with it,
 * 22.6 s with 2 threads and 23.2 s with 4 (docs/performance.md).
 */
export function defaultDecoderThreads(concurrency: number, processes = 1, cpus = availableParallelism()): number {
  return Math.max(2, Math.ceil(cpus / (processes * 2 * concurrency)));
}

/** `vq batch JOBS.jsonl`: returns the exit code. */
export async function batchCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const b = parseBatchArgs(argv);
  if (b.help) {
    io.stdout(BATCH_USAGE);
    return 0;
  }
  if (b.child) return batchChild(b.concurrency ?? DEFAULT_BATCH_CONCURRENCY, b.decoderThreads, io);
  const lines = readJobFile(b.jobs!);
  let failed = 0;
  let belowThreshold = 0;
  /** Jobs that ran and failed (the others that failed never ran: their line was not a job). */
  let failedRuns = 0;
  const fail = (where: string, message: string) => {
    failed++;
    io.stderr(`vq: ${where}: ${message}\n`);
  };
  const { invalid, done: skipped, pending: toRun } = sortJobs(lines);
  for (const line of invalid) fail(line.where, line.error.message);
  const progress = new BatchProgress(toRun.length, io, io.stderrIsTty && !b.quiet);
  const notes = new Set<string>();
  const events = (index: number) => ({
    // a note that every job would repeat (the backend chosen) is said once
    onNote: (m: string) => {
      if (b.quiet || toRun[index]!.settings.quiet || notes.has(m)) return;
      notes.add(m);
      progress.interrupt(() => io.stderr(`vq: ${toRun[index]!.where}: ${m}\n`));
    },
    onProgress: (n: number) => progress.frames(index, n),
  });
  const counted = (index: number, code: number) => {
    if (code === 1) {
      failed++;
      failedRuns++;
    } else if (code === THRESHOLD_FAILED_EXIT_CODE) belowThreshold++;
    progress.jobDone(index, code === 1);
  };
  if (b.gpus !== undefined) {
    // one process per GPU, each pinned to its own (ADR 0037), jobs handed out as they finish
    const gpus = parseGpus(b.gpus, listGpus());
    const slots = gpus.map((g) => ({ label: `GPU ${g.busId}`, env: gpuEnvironment(g) }));
    const concurrency = b.concurrency ?? defaultConcurrency(slots.length);
    const decoderThreads = b.decoderThreads ?? defaultDecoderThreads(concurrency, slots.length);
    await runOnProcesses(toRun, slots, { concurrency, decoderThreads, chunkFrames: b.chunkFrames }, io, progress, counted);
  } else {
    const concurrency = b.concurrency ?? defaultConcurrency();
    const decoderThreads = b.decoderThreads ?? defaultDecoderThreads(concurrency);
    for await (const done of scoreBatch(toRun.map(jobRequest), { concurrency, decoderThreads, events })) {
      counted(done.index, await writeJobOutcome(toRun[done.index]!, done, { ...io, stderr: (t) => progress.interrupt(() => io.stderr(t)) }));
    }
  }
  progress.end();
  if (!b.quiet) {
    const counts = [`${toRun.length - failedRuns} scored`, `${skipped.length} already done`, `${failed} failed`];
    if (belowThreshold) counts.push(`${belowThreshold} below a --threshold`);
    io.stderr(`vq: batch ${b.jobs}: ${lines.length} job${lines.length === 1 ? "" : "s"}: ${counts.join(", ")}\n`);
  }
  return failed ? 1 : belowThreshold ? THRESHOLD_FAILED_EXIT_CODE : 0;
}

interface ProcessesSettings {
  concurrency: number;
  /** ffmpeg's decoding threads per input in each process, for jobs without their own. */
  decoderThreads?: number;
  chunkFrames?: number;
  /** The child process's command (default: this vq's `batch --child`). */
  command?: readonly string[];
}

/**
 * The jobs scored by one child process per slot (`vq batch --child`), their lines said here.
 * With `chunkFrames`, a job longer than that goes out in frame ranges that any process
 * scores, merged here into the job's output once all are in (ADR 0038).
 */
export async function runOnProcesses(toRun: readonly BatchJobSpec[], slots: readonly ChildSlot[], how: ProcessesSettings, io: CliIo, progress: BatchProgress, counted: (index: number, code: number) => void): Promise<void> {
  const { concurrency, chunkFrames } = how;
  const say = (lines: readonly string[]) => {
    for (const l of lines) progress.interrupt(() => io.stderr(`vq: ${l}\n`));
  };
  const index = new Map(toRun.map((job, i) => [job.where, i]));
  const chunked = new Map<string, { ranges: number; chunks: ChunkScores[]; failed: boolean; t0: number }>();
  const merges: Promise<void>[] = [];
  const jobs: ChildJob[] = [];
  for (const job of toRun) {
    // inputs that cannot be opened here are sent whole: the process scoring them says why
    const ranges = chunkFrames ? await jobChunks(job, chunkFrames).catch((e) => (isVqError(e) ? undefined : Promise.reject(e))) : undefined;
    if (ranges) chunked.set(job.where, { ranges: ranges.length, chunks: [], failed: false, t0: performance.now() });
    jobs.push(...(ranges ?? [undefined]).map((range) => ({ where: job.where, line: job.line, range })));
  }
  const threads = how.decoderThreads === undefined ? [] : ["--decoder-threads", String(how.decoderThreads)];
  const command = how.command ?? [process.execPath, process.argv[1]!, "batch", "--child", "--concurrency", String(concurrency), ...threads];
  await scoreOnProcesses(jobs, slots, command, concurrency, (r) => {
    const i = index.get(r.where)!;
    const job = chunked.get(r.where);
    if (!job) {
      say(r.lines);
      counted(i, r.code);
    } else if (job.failed) return; // its first failed chunk was said
    else if (r.code !== 0) {
      job.failed = true;
      say(r.lines);
      counted(i, r.code);
    } else if (job.chunks.push(r.chunk!) === job.ranges) {
      const out = { ...io, stderr: (t: string) => progress.interrupt(() => io.stderr(t)) };
      merges.push(mergedOutcome(toRun[i]!, job.chunks, (performance.now() - job.t0) / 1000).then(
        (outcome) => writeJobOutcome(toRun[i]!, outcome, out).then((code) => counted(i, code)),
        (e) => {
          if (!isVqError(e)) throw e;
          say([`${r.where}: ${e.message}`]);
          counted(i, 1);
        },
      ));
    }
  });
  await Promise.all(merges);
}
