import { isVqError, VqError } from "@vq/core";
import { scoreLadder, type LadderOutcome, type LadderRequest } from "./ladder.ts";
import { score, type ScoreEvents, type ScoreRequest } from "./score.ts";

/** One job of a batch: `score`'s request, or `scoreLadder`'s when `distorted` is a list. */
export type BatchJob = ScoreRequest | LadderRequest;

/** A job's outcome: one per distorted input, in the job's order (one for a single input). */
export interface BatchJobOutcome {
  /** The job's position in the batch (0-based). */
  index: number;
  outcomes: LadderOutcome[];
  /** From the job's start to its end (its reading overlapped the jobs before it). */
  seconds: number;
}

export interface BatchOptions {
  /**
   * Jobs in flight at once (default 2): the next job opens, reads and decodes its inputs
   * while the one before it computes. Every job shares the process's one GPU device, so
   * kernels are compiled once for the whole batch.
   */
  concurrency?: number;
  /**
   * ffmpeg's decoding threads per input for the jobs that do not set their own
   * `decoderThreads` (absent: ffmpeg's own choice, about one a core). With several jobs in
   * flight, each decoding two inputs, a few threads each decode more frames in all: `vq
   * batch` gives about the CPUs over the decoders in flight, at least 2.
   */
  decoderThreads?: number;
  /** Events for job `index` (its progress and notes). */
  events?: (index: number) => ScoreEvents;
}

export const DEFAULT_BATCH_CONCURRENCY = 2;

/**
 * Scores many jobs in one process, yielding each job's outcome in job order as it ends.
 * A job that fails (its input, its options) is an outcome with errors; the others go on.
 * What is not an input's fault (a bug) rejects the iteration.
 */
export async function* scoreBatch(jobs: Iterable<BatchJob> | AsyncIterable<BatchJob>, options: BatchOptions = {}): AsyncGenerator<BatchJobOutcome, void, undefined> {
  const concurrency = options.concurrency ?? DEFAULT_BATCH_CONCURRENCY;
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new VqError(`batch options: concurrency: expected a positive integer, got ${concurrency}`);
  const threads = options.decoderThreads;
  if (threads !== undefined && (!Number.isInteger(threads) || threads < 0)) throw new VqError(`batch options: decoderThreads: expected a non-negative integer, got ${threads}`);
  const running: Promise<BatchJobOutcome>[] = [];
  const input = Symbol.asyncIterator in jobs ? jobs[Symbol.asyncIterator]() : jobs[Symbol.iterator]();
  let next = Promise.resolve(input.next());
  let ended = false;
  let index = 0;
  const start = (job: BatchJob) => {
    const threaded = threads !== undefined && job && job.decoderThreads === undefined ? { ...job, decoderThreads: threads } : job;
    const started = runJob(threaded, index, options.events?.(index) ?? {});
    index++;
    // a job's failure is seen when its turn comes, not as an unhandled rejection before
    started.catch(() => {});
    running.push(started);
  };
  while (!ended || running.length) {
    if (!ended && running.length < concurrency) {
      // Room for another job: take it when it comes, unless the oldest job ends first (jobs
      // may arrive slowly, from a stream: a finished job is not held back waiting for one).
      const head = running[0];
      const first = head ? await Promise.race([next.then((r) => ({ r })), head.then(() => undefined)]) : { r: await next };
      if (first) {
        if (first.r.done) ended = true;
        else {
          start(first.r.value);
          next = Promise.resolve(input.next());
        }
        continue;
      }
    }
    yield await running.shift()!;
  }
}

async function runJob(job: BatchJob, index: number, events: ScoreEvents): Promise<BatchJobOutcome> {
  const t0 = performance.now();
  const done = (outcomes: LadderOutcome[]) => ({ index, outcomes, seconds: (performance.now() - t0) / 1000 });
  if (Array.isArray(job?.distorted)) {
    const request = job as LadderRequest;
    try {
      return done(await scoreLadder(request, events).result);
    } catch (e) {
      // what fails every input of the job (its options, its reference)
      return done(request.distorted.map((distorted) => ({ distorted, error: asInputError(e) })));
    }
  }
  const request = job as ScoreRequest;
  try {
    return done([{ distorted: request.distorted, summary: await score(request, events).result }]);
  } catch (e) {
    return done([{ distorted: request?.distorted, error: asInputError(e) }]);
  }
}

function asInputError(e: unknown): VqError {
  if (isVqError(e)) return e;
  throw e;
}
