import { formatFixed, formatG, isVqError, VqError, type PooledScore } from "@vq/core";
import { scoreLadder, type LadderOutcome } from "@vq/score";
import type { CliSettings } from "./args.ts";
import { runEvents, scoreRequestFor, type CliIo } from "./run-setup.ts";
import { writeAtomically } from "./output/atomic-write.ts";
import { modelSummaryLines } from "./output/model-summary.ts";
import { renditionOutputs } from "./output/rendition-outputs.ts";
import { resultText } from "./output/result-text.ts";
import { THRESHOLD_FAILED_EXIT_CODE, thresholdFailureLine, thresholdFailures } from "./thresholds/threshold-check.ts";
import type { ScoredRun } from "./report/scoring-report.ts";
import { VERSION } from "./version.ts";

/**
 * `vq -r REF -d A -d B ...`: every distorted input scored against the one reference, read
 * once. Each output file is what a run with that input alone writes; an input that fails
 * is reported and the others still finish. Returns the exit code: 1 if any input failed,
 * else 3 if any input failed a --threshold.
 */
export async function scoreLadderCommand(s: CliSettings, io: CliIo, argv: readonly string[] = []): Promise<number> {
  // Checked before anything runs.
  checkLadderSettings(s);
  const t0 = performance.now();
  const { progress, events } = runEvents(s, io, t0);
  const ladder = scoreLadder({ ...scoreRequestFor(s), distorted: s.distorted }, events);
  const outcomes = await ladder.result;
  if (progress) io.stderr("\n");
  return writeLadderOutputs(s, outcomes, (performance.now() - t0) / 1000, argv, io);
}

/** Checks a ladder's command line before it runs: what a ladder does not take, and where each input's result goes. */
export function checkLadderSettings(s: CliSettings): string[] | undefined {
  for (const [flag, set] of [["--gpu-profile", s.gpuProfile], ["--timing", s.timing]] as const) {
    if (set) throw new VqError(`${flag} times one distorted input: give one -d with it`);
  }
  // the reference is read once for every input, so it has one skip for them all
  if (s.align !== undefined) throw new VqError("--align auto aligns one distorted input: give one -d with it");
  return renditionOutputs(s.output, s.distorted);
}

/**
 * What a scored ladder writes: each input's output (as a run with that input alone writes
 * it), threshold failures, the comparison report, the summary lines. Returns the exit code.
 */
export async function writeLadderOutputs(s: CliSettings, outcomes: readonly LadderOutcome[], seconds: number, argv: readonly string[], io: CliIo): Promise<number> {
  const outputs = renditionOutputs(s.output, s.distorted);
  let failed = 0;
  let belowThreshold = 0;
  const summaries: string[] = [];
  const reported: ScoredRun[] = [];
  for (const [i, outcome] of outcomes.entries()) {
    const name = s.distorted[i]!;
    if (outcome.error) {
      failed++;
      io.stderr(`vq: ${outcome.error.message}\n`);
      continue;
    }
    const result = outcome.summary;
    try {
      if (outputs) writeAtomically(outputs[i]!, resultText(s, result, result.frames / seconds));
    } catch (e) {
      failed++;
      io.stderr(`vq: ${(e as Error).message}\n`);
      continue;
    }
    const failures = thresholdFailures(s.thresholds, result.pooled);
    for (const f of failures) io.stderr(`vq: ${thresholdFailureLine(f, s.precision, name)}\n`);
    if (failures.length) belowThreshold++;
    summaries.push(`${name}: ${summaryOf(s, result.pooled)}`);
    if (s.report) reported.push({ distorted: name, json: resultText({ ...s, outputFormat: "json" }, result, result.frames / seconds), source: outputs?.[i] ?? "(not written: no -o)", result });
  }
  // --report: one page comparing the inputs that were scored (the report of one when only one was)
  if (s.report && reported.length) {
    try {
      const { scoringReport } = await import("./report/scoring-report.ts");
      writeAtomically(s.report, await scoringReport(reported, s, argv, `vq ${VERSION}`), "the report");
    } catch (e) {
      if (!isVqError(e)) throw e;
      failed++;
      io.stderr(`vq: ${e.message}\n`);
    }
  }
  if (!outputs) io.stdout(summaries.map((l) => `${l}\n`).join(""));
  // libvmaf's closing lines, last on the terminal, one per distorted input
  else if (io.stderrIsTty && !s.quiet) io.stderr(summaries.map((l) => `${l}\n`).join(""));
  return failed ? 1 : belowThreshold ? THRESHOLD_FAILED_EXIT_CODE : 0;
}

/** One input's pooled result on one line: the models' `LABEL: MEAN`, or each feature's mean without a model. */
function summaryOf(s: CliSettings, pooled: Readonly<Record<string, PooledScore>>): string {
  if (!s.noPrediction) return modelSummaryLines(s.models, pooled, s.precision).join("  ");
  const format = s.precision === "max" ? (x: number) => formatG(x, 17) : (x: number) => formatFixed(x, s.precision as number);
  return Object.entries(pooled)
    .map(([name, p]) => `${name}: ${format(p.mean)}`)
    .join("  ");
}
