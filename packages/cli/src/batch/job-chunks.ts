import { mergeChunks, planChunks, runLength, type BatchJobOutcome, type ChunkScores, type FrameRange, type ScoreRequest } from "@vq/score";
import type { BatchJobSpec } from "./job-file.ts";
import { jobRequest } from "./job-run.ts";

/**
 * A job's frame ranges under --chunk-frames (ADR 0038); undefined when it is scored whole:
 * a ladder, an --align run, or inputs whose length is not known before reading them.
 */
export async function jobChunks(spec: BatchJobSpec, chunkFrames: number): Promise<FrameRange[] | undefined> {
  if (spec.settings.distorted.length > 1 || spec.settings.align !== undefined) return undefined;
  const frames = await runLength(jobRequest(spec) as ScoreRequest);
  if (frames === undefined || frames <= chunkFrames) return undefined;
  return planChunks(frames, chunkFrames);
}

/** A chunked job's outcome, as scoring it whole gives it: its chunks merged (`seconds`: the job's time, for fps). */
export async function mergedOutcome(spec: BatchJobSpec, chunks: readonly ChunkScores[], seconds: number): Promise<BatchJobOutcome> {
  const request = jobRequest(spec) as ScoreRequest;
  return { index: 0, outcomes: [{ distorted: request.distorted, summary: await mergeChunks(request, chunks) }], seconds };
}
