import { createInterface } from "node:readline";
import { isVqError } from "@vq/core";
import { scoreBatch, scoreChunk, type BatchJob, type FrameRange, type ScoreRequest } from "@vq/score";
import type { ChildJob, ChildResult } from "../gpus/gpu-processes.ts";
import type { CliIo } from "../run-setup.ts";
import { jobFromObject, type BatchJobSpec } from "./job-file.ts";
import { jobRequest, writeJobOutcome } from "./job-run.ts";

/**
 * `vq batch --child`: the process of one GPU under `vq batch --gpus`. Jobs come on standard
 * input as they are handed out (one JSON object a line: where, line, and range for a chunk);
 * each finished job or chunk is one JSON line on standard output (where, range, code, lines,
 * chunk). Ends when its input ends.
 */
export async function batchChild(concurrency: number, decoderThreads: number | undefined, io: CliIo): Promise<number> {
  const specs: BatchJobSpec[] = [];
  const chunks: Promise<void>[] = [];
  const say = (r: ChildResult) => io.stdout(`${JSON.stringify(r)}\n`);
  async function* requests(): AsyncGenerator<BatchJob> {
    for await (const text of createInterface({ input: process.stdin })) {
      const job = JSON.parse(text) as ChildJob;
      try {
        const spec = jobFromObject(job.line, job.where);
        if (job.range) {
          // a chunk runs beside the batch's jobs: the parent hands out no more than --concurrency at once
          chunks.push(scoreChildChunk(spec, job.range, decoderThreads).then(say));
          continue;
        }
        specs.push(spec);
        yield jobRequest(spec);
      } catch (e) {
        if (!isVqError(e)) throw e;
        say({ where: job.where, range: job.range, code: 1, lines: [`${job.where}: ${e.message}`] });
      }
    }
  }
  for await (const done of scoreBatch(requests(), { concurrency, decoderThreads })) {
    const spec = specs[done.index]!;
    const lines: string[] = [];
    const code = await writeJobOutcome(spec, done, { stdout: () => {}, stderr: (t) => void lines.push(...t.split("\n").filter(Boolean).map((l) => l.replace(/^vq: /, ""))), stderrIsTty: false });
    say({ where: spec.where, code, lines });
  }
  await Promise.all(chunks);
  return 0;
}

/** A chunk of a job (`vq batch --gpus --chunk-frames`): its scores, or its error as a failed job's line. */
async function scoreChildChunk(spec: BatchJobSpec, range: FrameRange, decoderThreads: number | undefined): Promise<ChildResult> {
  try {
    const request = jobRequest(spec) as ScoreRequest;
    return { where: spec.where, range, code: 0, lines: [], chunk: await scoreChunk({ ...request, decoderThreads: request.decoderThreads ?? decoderThreads }, range) };
  } catch (e) {
    if (!isVqError(e)) throw e;
    return { where: spec.where, range, code: 1, lines: [`${spec.where}: frames ${range.start} to ${range.end - 1}: ${e.message}`] };
  }
}
