import { isVqError } from "@vq/core";
import type { BatchJob, BatchJobOutcome } from "@vq/score";
import { writeLadderOutputs } from "../ladder-command.ts";
import { writeRunOutputs } from "../output/run-outputs.ts";
import { scoreRequestFor, type CliIo } from "../run-setup.ts";
import type { BatchJobSpec } from "./job-file.ts";

/** The library request a job stands for: `score`'s, or `scoreLadder`'s for several distorted inputs. */
export function jobRequest(job: BatchJobSpec): BatchJob {
  const s = job.settings;
  if (s.distorted.length > 1) return { ...scoreRequestFor(s), distorted: s.distorted };
  return { ...scoreRequestFor(s), distorted: s.distorted[0]!, align: s.align === undefined ? undefined : { search: s.align } };
}

/**
 * Writes a scored job's outputs as `vq` with its arguments would, its lines on `io.stderr`
 * prefixed with the job's FILE:LINE. Returns the exit code a run of it alone would have.
 */
export async function writeJobOutcome(job: BatchJobSpec, done: BatchJobOutcome, io: CliIo): Promise<number> {
  const jobIo: CliIo = { stdout: io.stdout, stderr: (t) => io.stderr(t.replace(/^vq: /gm, `vq: ${job.where}: `)), stderrIsTty: false };
  try {
    const s = job.settings;
    if (s.distorted.length > 1) return await writeLadderOutputs(s, done.outcomes, done.seconds, job.argv, jobIo);
    const outcome = done.outcomes[0]!;
    if (outcome.error) {
      jobIo.stderr(`vq: ${outcome.error.message}\n`);
      return 1;
    }
    return await writeRunOutputs(s, outcome.summary, outcome.summary.frames / done.seconds, job.argv, jobIo);
  } catch (e) {
    if (!isVqError(e)) throw e;
    jobIo.stderr(`vq: ${e.message}\n`);
    return 1;
  }
}
