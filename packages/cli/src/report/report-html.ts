import { VqError } from "@vq/core";
import { renderComparisonReport, comparedKey } from "./comparison-report.ts";
import { renderReport } from "./html-report.ts";
import { primaryKey, type ReportData } from "./report-data.ts";
import { THUMBNAIL_ROWS } from "./report-sections.ts";
import { inspectRunInputs } from "./run-inputs.ts";
import { framesBelowMean } from "./worst-frames.ts";

/**
 * The report of one run (renderReport) or the comparison of several
 * (renderComparisonReport), with what the runs' input files tell when their settings name
 * them and they are still readable: the worst frames' pictures and each file's bitrate.
 */
export async function reportHtml(runs: readonly ReportData[], generator: string): Promise<string> {
  if (!runs.length) throw new VqError("no run was scored: no report to write");
  const key = runs.length === 1 ? primaryKey(runs[0]!) : comparedKey(runs);
  const inputs = [];
  // One run after the other: each decodes its inputs, and two at once would only compete.
  for (const r of runs) {
    const frames = key ? framesBelowMean(r, key, THUMBNAIL_ROWS).frames.map((f) => f.frameNum) : [];
    inputs.push(await inspectRunInputs(r, frames));
  }
  return runs.length === 1 ? renderReport(runs[0]!, generator, inputs[0]) : renderComparisonReport(runs, generator, inputs);
}
