import { existsSync, readFileSync } from "node:fs";
import { VqError } from "@vq/core";
import { z } from "zod";
import { parseArgs, type CliSettings } from "../args.ts";
import { checkLadderSettings } from "../ladder-command.ts";

/** One line of a JOBS.jsonl file. */
export const jobLine = z.strictObject({
  reference: z.string().min(1),
  distorted: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
  /** With several distorted inputs, holds {name} or {n}, as -o does. */
  output: z.string().min(1),
  /** Any per-run arguments of `vq` (models, features, formats, thresholds, --report ...). */
  args: z.array(z.string()).default([]),
});

export type JobLineFields = z.infer<typeof jobLine>;

/** A job as the command line of the run it stands for. */
export interface BatchJobSpec {
  /** `FILE:LINE`, how messages name the job. */
  where: string;
  /** The line's fields as given. */
  line: JobLineFields;
  settings: CliSettings;
  /** The files a finished job has written (its outputs, then its report): all there = done. */
  writes: string[];
  /** The command line it stands for (the report's settings). */
  argv: string[];
}

export type JobLine = { where: string; job: BatchJobSpec; error?: undefined } | { where: string; job?: undefined; error: VqError };

/** Arguments a job gives in its fields or that mean nothing per job. */
const NOT_IN_ARGS: [keyof CliSettings, string][] = [
  ["help", "--help"],
  ["version", "--version"],
  ["gpuProfile", "--gpu-profile (time one run with vq itself)"],
  ["timing", "--timing (time one run with vq itself)"],
];

/** Reads a JOBS.jsonl file: one job per non-empty line; a line that is not a valid job is that job's error. */
export function readJobFile(path: string): JobLine[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new VqError(`${path}: cannot read the jobs: ${(e as Error).message}`);
  }
  const lines: JobLine[] = [];
  text.split("\n").forEach((line, i) => {
    if (!line.trim()) return;
    const where = `${path}:${i + 1}`;
    try {
      lines.push({ where, job: jobSpec(line, where) });
    } catch (e) {
      if (!(e instanceof VqError)) throw e;
      lines.push({ where, error: e });
    }
  });
  if (!lines.length) throw new VqError(`${path}: no jobs (one JSON object per line: {"reference": ..., "distorted": ..., "output": ...})`);
  return lines;
}

function jobSpec(line: string, where: string): BatchJobSpec {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch (e) {
    throw new VqError(`not a JSON object: ${(e as Error).message}`);
  }
  return jobFromObject(json, where);
}

/** A job line's object as the command line of its run (a VqError naming the field or argument when it is not a job). */
export function jobFromObject(json: unknown, where: string): BatchJobSpec {
  const parsed = jobLine.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new VqError(`${issue.path.join(".") || "the job"}: ${issue.message}`);
  }
  const { reference, output, args } = parsed.data;
  const distorted = typeof parsed.data.distorted === "string" ? [parsed.data.distorted] : parsed.data.distorted;
  // The inputs and output come from the job's fields: the same options in args would be a second, conflicting answer.
  const own = parseArgs(["-r", "-", "-d", "-", ...args]);
  if (own.reference !== "-" || own.distorted.length > 1) throw new VqError(`args: give the inputs in "reference" and "distorted", not as -r/-d`);
  if (own.output !== undefined) throw new VqError(`args: give the output in "output", not as -o`);
  for (const [key, flag] of NOT_IN_ARGS) if (own[key]) throw new VqError(`args: ${flag} is not a batch job's option`);
  const argv = [...args, "-r", reference, ...distorted.flatMap((d) => ["-d", d]), "-o", output];
  const settings = parseArgs(argv);
  const outputs = distorted.length > 1 ? checkLadderSettings(settings)! : [output];
  return { where, line: parsed.data, settings, writes: [...outputs, ...(settings.report ? [settings.report] : [])], argv };
}

/** A jobs file's lines sorted for a run: lines that are not jobs (reported), jobs already done, jobs to run. */
export interface SortedJobs {
  invalid: { where: string; error: VqError }[];
  /** Jobs whose outputs (and report) all exist: a rerun resumes after them. */
  done: BatchJobSpec[];
  pending: BatchJobSpec[];
}

export function sortJobs(lines: readonly JobLine[]): SortedJobs {
  const sorted: SortedJobs = { invalid: [], done: [], pending: [] };
  for (const line of lines) {
    if (line.error) sorted.invalid.push(line);
    else if (line.job.writes.every((path) => existsSync(path))) sorted.done.push(line.job);
    else sorted.pending.push(line.job);
  }
  return sorted;
}
