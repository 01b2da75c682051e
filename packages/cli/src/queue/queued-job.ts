import { createHash } from "node:crypto";
import { isAbsolute, resolve } from "node:path";
import type { FrameRange } from "@vq/score";
import type { JobLineFields } from "../batch/job-file.ts";

/** The queue vq's workers and submitters use unless --queue says another. */
export const DEFAULT_QUEUE = "vq";
/** BullMQ's name for a whole job (scored by one worker). */
export const SCORE_JOB = "score";
/** A frame range of a job (`vq submit --chunk-frames`), scored by any worker. */
export const CHUNK_JOB = "chunk";
/** A chunked job's parent: runs once every chunk is scored, merges them and writes the output. */
export const MERGE_JOB = "merge";

/** What a queued job carries: the job line (with absolute paths) and where it came from. */
export interface QueuedJobData {
  /** `FILE:LINE` of the jobs file it was submitted from. */
  where: string;
  line: JobLineFields;
  /** A chunk's frames (CHUNK_JOB). */
  range?: FrameRange;
}

/** What a finished job returns: the exit code a run of it alone would have (0, or 3 for a failed --threshold) and its lines. */
export interface QueuedJobResult {
  code: number;
  lines: string[];
}

/**
 * The job line with its inputs and output made absolute against the submitter's directory:
 * workers run elsewhere and see the same files (a shared filesystem, an object-store mount).
 * Inputs that are URLs ffmpeg reads (`s3://`, `https://`) are left as they are.
 */
export function absoluteJobLine(line: JobLineFields, cwd: string): JobLineFields {
  const absolute = (p: string) => (isAbsolute(p) || /^[a-z][a-z0-9+.-]*:\/\//i.test(p) ? p : resolve(cwd, p));
  const distorted = typeof line.distorted === "string" ? absolute(line.distorted) : line.distorted.map(absolute);
  return { reference: absolute(line.reference), distorted, output: absolute(line.output), args: line.args };
}

/**
 * The job's id in the queue: the same job submitted twice is one job (BullMQ keeps the
 * first), so resubmitting a jobs file does not score anything twice.
 */
export function queuedJobId(line: JobLineFields): string {
  return `vq-${createHash("sha256").update(JSON.stringify([line.reference, line.distorted, line.output, line.args])).digest("hex").slice(0, 32)}`;
}

/** The id of a chunk of the job `id`. */
export function chunkJobId(id: string, range: FrameRange): string {
  return `${id}-f${range.start}`;
}
