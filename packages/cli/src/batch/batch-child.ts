import { createInterface } from "node:readline";
import { isVqError } from "@vq/core";
import { scoreBatch, type BatchJob } from "@vq/score";
import type { ChildJob, ChildResult } from "../gpus/gpu-processes.ts";
import type { CliIo } from "../run-setup.ts";
import { jobFromObject, type BatchJobSpec } from "./job-file.ts";
import { jobRequest, writeJobOutcome } from "./job-run.ts";

/**
 * `vq batch --child`: the process of one GPU under `vq batch --gpus`. Jobs come on standard
 * input as they are handed out (one JSON object a line: where, line); each finished job is
 * one JSON line on standard output (where, code, lines). Ends when its input ends.
 */
export async function batchChild(concurrency: number, io: CliIo): Promise<number> {
  const specs: BatchJobSpec[] = [];
  const say = (r: ChildResult) => io.stdout(`${JSON.stringify(r)}\n`);
  async function* requests(): AsyncGenerator<BatchJob> {
    for await (const text of createInterface({ input: process.stdin })) {
      const job = JSON.parse(text) as ChildJob;
      try {
        const spec = jobFromObject(job.line, job.where);
        specs.push(spec);
        yield jobRequest(spec);
      } catch (e) {
        if (!isVqError(e)) throw e;
        say({ where: job.where, code: 1, lines: [`${job.where}: ${e.message}`] });
      }
    }
  }
  for await (const done of scoreBatch(requests(), { concurrency })) {
    const spec = specs[done.index]!;
    const lines: string[] = [];
    const code = await writeJobOutcome(spec, done, { stdout: () => {}, stderr: (t) => void lines.push(...t.split("\n").filter(Boolean).map((l) => l.replace(/^vq: /, ""))), stderrIsTty: false });
    say({ where: spec.where, code, lines });
  }
  return 0;
}
