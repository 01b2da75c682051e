import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readJobFile } from "../../../cli/src/batch/job-file.ts";
import { jsonText, mutateJson } from "../json-mutations.ts";
import { jsonCase } from "../json-case.ts";
import { judgeError } from "../outcome.ts";
import { mutateText } from "../mutators.ts";
import type { Prng } from "../prng.ts";
import { shrinkList } from "../shrink.ts";
import type { FuzzContext, FuzzTarget } from "../target.ts";
import { commandFiles, planSettings } from "./args.ts";
import { mutateCommandLine } from "./command-lines.ts";

/** Valid jobs of `vq batch JOBS.jsonl` (docs/batch.md), the mutations' starting points. */
function validJobs(ctx: FuzzContext): Record<string, unknown>[] {
  const f = commandFiles(ctx);
  return [
    { reference: f.ref, distorted: f.dist, output: join(f.out, "a.json"), args: ["--json"] },
    { reference: f.ref, distorted: [f.dist, `${f.dist.slice(0, -4)}2.y4m`], output: join(f.out, "{name}.xml") },
    { reference: f.ref, distorted: f.dist, output: join(f.out, "b.csv"), args: ["--csv", "--feature", "psnr", "--threshold", "psnr_y.min>10", "--model", `path=${f.model}`] },
    { reference: "ref.yuv", distorted: "dist.yuv", output: join(f.out, "c.xml"), args: ["-w", "160", "-h", "90", "-p", "420", "-b", "8", "--report", join(f.out, "c.html")] },
    { reference: f.ref, distorted: [f.dist, f.ref], output: join(f.out, "{n}.json"), args: ["--json", "-n", "--feature", "float_ssim", "--pool", "extended"] },
  ];
}

/** A jobs file of one to four lines, each a valid job with a few edits (fields, types, numbers, its args), some lines not JSON. */
export function generateJobs(rng: Prng, ctx: FuzzContext): string[] {
  const jobs = validJobs(ctx);
  return Array.from({ length: rng.range(1, 4) }, () => {
    let job: unknown = structuredClone(rng.pick(jobs));
    const edit = rng.int(10);
    if (edit < 3) job = mutateJson(rng, job);
    else if (edit < 6) {
      const j = job as { args?: string[] };
      j.args = mutateCommandLine(rng, j.args ?? []);
    } else if (edit === 6) job = rng.pick<unknown>([[], "job", 1, null, { reference: 1 }, { ...(job as object), extra: true }, { ...(job as object), args: ["-r", "x.y4m"] }, { ...(job as object), args: ["-o", "x"] }, { ...(job as object), args: ["--help"] }]);
    const line = jsonText(job);
    return rng.chance(0.1) ? mutateText(rng, line) : rng.chance(0.05) ? "" : line;
  });
}

/**
 * The file read as `vq batch` reads it, then every job that is one planned as the command
 * plans a run before scoring it; a line that is not a job must carry a clean VqError.
 */
export async function readJobs(lines: string[], ctx: FuzzContext): Promise<unknown> {
  const path = join(ctx.caseDir, "jobs.jsonl");
  writeFileSync(path, lines.join("\n"));
  try {
    let refused = 0;
    let planned = 0;
    for (const line of readJobFile(path)) {
      if (line.error) {
        const odd = judgeError(line.error);
        if (odd) throw new Error(`${line.where}: ${odd}`);
        refused++;
        continue;
      }
      try {
        await planSettings(line.job.settings);
        planned++;
      } catch (e) {
        const odd = judgeError(e);
        if (odd) throw e;
        refused++;
      }
    }
    return { planned, refused };
  } finally {
    rmSync(path, { force: true });
  }
}

export const jobsTarget: FuzzTarget<string[]> = {
  name: "jobs",
  description: "vq batch's JOBS.jsonl: lines of valid jobs with fields dropped or of the wrong type, odd numbers, their args mutated as command lines, lines that are not JSON or not objects; read as the batch command reads them, each job planned as a run",
  weight: 6,
  generate: generateJobs,
  run: readJobs,
  save: jsonCase.save,
  load: (f) => jsonCase.load<string[]>(f),
  shrink: shrinkList,
};
