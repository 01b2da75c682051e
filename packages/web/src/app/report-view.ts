import { bitrate, parseReportData, renderComparisonReport, renderReport, VERSION, type ReportData, type RunInputs, type RunSettings } from "@vq/cli/report";
import type { ScoredFile, ScoreJob } from "../worker/protocol.ts";

/** An argument as a shell reads it back (the settings table's command line). */
const word = (a: string) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`);

/** The `vq` command that scores the same files the same way (without the page's file paths, only their names). */
function commandLine(job: ScoreJob, file: string): string {
  const args = ["vq", "--reference", job.reference.name, "--distorted", file, "--backend", job.backend, "--json", "--output", `${file}.json`];
  for (const m of job.models) args.push("--model", m);
  if (job.noPrediction) args.push("--no_prediction");
  for (const f of job.features) args.push("--feature", f);
  return args.map(word).join(" ");
}

function settings(job: ScoreJob, r: ScoredFile): RunSettings {
  return {
    reference: job.reference.name,
    distorted: r.name,
    models: job.models,
    noPrediction: job.noPrediction,
    features: job.features,
    backendRequested: job.backend,
    backendUsed: r.backend,
    width: r.width,
    height: r.height,
    threads: 1,
    subsample: 1,
    skipRef: 0,
    skipDist: 0,
    scale: false,
    commandLine: commandLine(job, r.name),
  };
}

/** What the report learns from the files besides the scores: the distorted file's bitrate when its frame rate is known. */
function inputsOf(r: ScoredFile): RunInputs {
  const inputs: RunInputs = { thumbnails: new Map(), notes: [] };
  if (r.frameCount !== undefined) {
    inputs.rate = { bytes: r.bytes, frames: r.frameCount, frameRate: r.frameRate };
    inputs.bitsPerSecond = bitrate(inputs.rate);
  }
  return inputs;
}

/**
 * The report page of a finished run, rendered by `vq report`'s own renderer from the same
 * libvmaf JSON text a download gives: one file's report, or the ladder comparison of several.
 */
export function reportHtml(job: ScoreJob, results: readonly ScoredFile[]): string {
  const runs: ReportData[] = results.map((r) => parseReportData(JSON.parse(r.json), `${r.name}.json`, settings(job, r)));
  const generator = `vq web ${VERSION}`;
  return runs.length === 1 ? renderReport(runs[0]!, generator, inputsOf(results[0]!)) : renderComparisonReport(runs, generator, results.map(inputsOf));
}
