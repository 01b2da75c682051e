import { rmSync } from "node:fs";
import { writeJson } from "@vq/core";
import type { ScoreSummary } from "@vq/score";
import type { CliSettings } from "../args.ts";
import type { CliIo } from "../run-setup.ts";
import { THRESHOLD_FAILED_EXIT_CODE, thresholdFailureLine, thresholdFailures } from "../thresholds/threshold-check.ts";
import { VERSION } from "../version.ts";
import { writeAtomically } from "./atomic-write.ts";
import { modelSummaryLines } from "./model-summary.ts";
import { resultText } from "./result-text.ts";

/**
 * What one scored run writes: the report (--report), the output (-o or standard output),
 * the --threshold failures and libvmaf's closing lines. Returns the exit code (3 when a
 * threshold failed). The same for `vq` and for each job of `vq batch`.
 */
export async function writeRunOutputs(s: CliSettings, result: ScoreSummary, fps: number, argv: readonly string[], io: CliIo): Promise<number> {
  const text = resultText(s, result, fps);
  const options = { precision: s.precision, subsample: s.subsample, frameCount: result.frames, version: VERSION, fps, pool: s.pool };
  // Rendered before anything is written, so a failure leaves neither file behind.
  const html = s.report ? await scoringReport(writeJson(result.collector, options), s, argv, result) : undefined;
  // The report first: if either write fails, neither file is left behind.
  if (s.report) writeAtomically(s.report, html!, "the report");
  try {
    if (s.output) writeAtomically(s.output, text);
    else io.stdout(text);
  } catch (e) {
    // best effort: the write's own error is the one to report
    if (s.report) {
      try {
        rmSync(s.report, { force: true });
      } catch {}
    }
    throw e;
  }
  // CI gates: shown even with -q, before libvmaf's closing lines
  const failures = thresholdFailures(s.thresholds, result.pooled);
  for (const f of failures) io.stderr(`vq: ${thresholdFailureLine(f, s.precision)}\n`);
  // libvmaf's closing lines, last on the terminal (its rule: a terminal, and not -q with -o)
  if (io.stderrIsTty && !s.noPrediction && (!s.quiet || !s.output)) {
    for (const line of modelSummaryLines(s.models, result.pooled, s.precision)) io.stderr(`${line}\n`);
  }
  return failures.length ? THRESHOLD_FAILED_EXIT_CODE : 0;
}

/** The report of a scoring run: the JSON result as written, plus the command line's settings. Loaded only for a report. */
async function scoringReport(json: string, s: CliSettings, argv: readonly string[], result: ScoreSummary): Promise<string> {
  const { scoringReport } = await import("../report/scoring-report.ts");
  return scoringReport([{ distorted: s.distorted[0]!, json, source: s.output ?? "standard output", result }], s, argv, `vq ${VERSION}`);
}
