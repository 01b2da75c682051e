import { bitrate, comparedKey, framesBelowMean, parseReportData, primaryKey, renderComparisonReport, renderReport, THUMBNAIL_ROWS, VERSION, type FramePair, type ReportData, type RunInputs, type RunSettings } from "@vq/cli/report";
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

/** What the report learns from the files besides the scores: the worst frames' pictures, and the bitrate when the frame rate is known. */
function inputsOf(r: ScoredFile, thumbnails: Map<number, FramePair> | undefined, note: string | undefined): RunInputs {
  const inputs: RunInputs = { thumbnails: thumbnails ?? new Map(), notes: note ? [note] : [] };
  if (r.frameCount !== undefined) {
    inputs.rate = { bytes: r.bytes, frames: r.frameCount, frameRate: r.frameRate };
    inputs.bitsPerSecond = bitrate(inputs.rate);
  }
  return inputs;
}

/** A finished run as the report sees it: each file's data, parsed from the same libvmaf JSON text a download gives. */
export interface ReportRuns {
  job: ScoreJob;
  results: readonly ScoredFile[];
  runs: ReportData[];
  /** Per file, the frames whose pictures the worst-frames table shows (as `vq report` picks them). */
  thumbnailFrames: number[][];
}

export function reportRuns(job: ScoreJob, results: readonly ScoredFile[]): ReportRuns {
  const runs = results.map((r) => parseReportData(JSON.parse(r.json), `${r.name}.json`, settings(job, r)));
  const key = runs.length === 1 ? primaryKey(runs[0]!) : comparedKey(runs);
  const thumbnailFrames = runs.map((r) => (key ? framesBelowMean(r, key, THUMBNAIL_ROWS).frames.map((f) => f.frameNum) : []));
  return { job, results, runs, thumbnailFrames };
}

/**
 * The report page, rendered by `vq report`'s own renderer: one file's report, or the ladder
 * comparison of several; `thumbnails` per file (or a note saying why there are none).
 */
export function reportHtml(r: ReportRuns, thumbnails: Map<number, FramePair>[] | undefined, note?: string): string {
  const generator = `vq web ${VERSION}`;
  const inputs = r.results.map((s, i) => inputsOf(s, thumbnails?.[i], note));
  return r.runs.length === 1 ? renderReport(r.runs[0]!, generator, inputs[0]) : renderComparisonReport(r.runs, generator, inputs);
}
