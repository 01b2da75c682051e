import type { Alignment } from "@vq/score";
import type { CliSettings } from "../args.ts";
import { parseReportData, type RunSettings } from "./report-data.ts";
import { reportHtml } from "./report-html.ts";

/** An argument as a POSIX shell reads it back. */
export function shellWord(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** What one scored distorted input left: the JSON text vq writes for it, and the run's facts. */
export interface ScoredRun {
  /** The distorted input's path as given on the command line. */
  distorted: string;
  /** The result as `writeJson` wrote it (same precision as the output). */
  json: string;
  /** Where that result went (`-o` path, or "standard output"), named in the report. */
  source: string;
  /** `alignment`: what --align auto found. */
  result: { width: number; height: number; backend: string; alignment?: Alignment };
}

/** The command line's settings for one distorted input, as the report shows them. */
export function scoringRunSettings(s: CliSettings, argv: readonly string[], run: ScoredRun): RunSettings {
  return {
    reference: s.reference!,
    distorted: run.distorted,
    models: s.models,
    noPrediction: s.noPrediction,
    features: s.features.map((f) => {
      const options = Object.entries(f.options).map(([k, v]) => `${k}=${v}`);
      return options.length ? `${f.name}=${options.join(":")}` : f.name;
    }),
    backendRequested: s.backend,
    backendUsed: run.result.backend,
    width: run.result.width,
    height: run.result.height,
    threads: s.threads,
    subsample: s.subsample,
    frameCount: s.frameCount,
    // the skips --align found, or those given
    skipRef: run.result.alignment?.skipRef ?? s.skipRef,
    skipDist: run.result.alignment?.skipDist ?? s.skipDist,
    alignment: run.result.alignment && alignmentSetting(run.result.alignment),
    scale: s.scale,
    conform: s.conform,
    scaler: s.scaler,
    raw: s.width !== undefined && s.height !== undefined && s.pixelFormat !== undefined && s.bitDepth !== undefined ? { width: s.width, height: s.height, pixelFormat: s.pixelFormat, bitDepth: s.bitDepth } : undefined,
    ffmpeg: s.ffmpeg,
    commandLine: ["vq", ...argv].map(shellWord).join(" "),
  };
}

/** The report's line for --align: what was searched and found. */
function alignmentSetting(a: Alignment): string {
  const psnr = Number.isFinite(a.psnr) ? `${a.psnr.toFixed(1)} dB` : "identical frames";
  return `auto (±${a.search} frames): skips reference ${a.skipRef}, distorted ${a.skipDist} (thumbnail luma PSNR ${psnr}, the better half of ${a.frames} frame pairs)`;
}

/**
 * The `--report` page of a scoring run: one distorted input gives the single-run report,
 * several (a ladder) one comparison report. Each result is re-parsed from the very JSON
 * text vq writes, so the page shows the numbers the files have.
 */
export function scoringReport(runs: readonly ScoredRun[], s: CliSettings, argv: readonly string[], generator: string): Promise<string> {
  return reportHtml(
    runs.map((r) => parseReportData(JSON.parse(r.json), r.source, scoringRunSettings(s, argv, r))),
    generator,
  );
}
