import { z } from "zod";
import { VqError } from "@vq/core";

/** libvmaf writes `null` for a score that is infinite or not a number (PSNR of identical frames). */
const score = z.number().nullable();
const extended = { median: score.optional(), stdev: score.optional(), p1: score.optional(), p5: score.optional(), p95: score.optional() }; // --pool extended
const pooled = z.union([z.strictObject({ min: score, max: score, mean: score, harmonic_mean: score, ...extended }), z.strictObject({})]);

/** libvmaf's (and vq's) `--json` layout; unknown extra fields are ignored. */
export const resultJsonSchema = z.object({
  version: z.string(),
  fps: score,
  frames: z.array(z.object({ frameNum: z.number().int().min(0), metrics: z.record(z.string(), score) })).min(1, "no frames"),
  pooled_metrics: z.record(z.string(), pooled),
  aggregate_metrics: z.record(z.string(), score).default({}),
});

export interface PooledScores {
  min: number | null;
  max: number | null;
  mean: number | null;
  harmonic_mean: number | null;
}

/** How the scores were made, when the report is written during scoring. */
export interface RunSettings {
  reference: string;
  distorted: string;
  /** `--model` arguments as given (empty: the default model, unless `noPrediction`). */
  models: string[];
  noPrediction: boolean;
  /** `--feature` arguments as given. */
  features: string[];
  /** The backend asked for, and the one that ran. */
  backendRequested: string;
  backendUsed: string;
  width: number;
  height: number;
  threads: number;
  subsample: number;
  frameCount?: number;
  skipRef: number;
  skipDist: number;
  /** With --align auto: how the skips were found. */
  alignment?: string;
  scale: boolean;
  /** Raw .yuv inputs' format, to read them again for thumbnails. */
  raw?: { width: number; height: number; pixelFormat: string; bitDepth: number };
  /** The ffmpeg binary the run used (`--ffmpeg`). */
  ffmpeg?: string;
  conform?: boolean;
  scaler?: string;
  /** The full command line, to repeat the run. */
  commandLine: string;
}

/** A result file, validated, in the terms the report uses. */
export interface ReportData {
  /** Where the scores came from (a file name, or the output path during scoring). */
  source: string;
  version: string;
  fps: number | null;
  /** Frame numbers in file order (subsampled runs skip some). */
  frameNums: number[];
  /** Every score key, in the order libvmaf first wrote them. */
  keys: string[];
  /** Model scores: every key starting with `vmaf` (libvmaf names model outputs so). */
  modelKeys: string[];
  featureKeys: string[];
  /** Per key, one value per entry of frameNums; null where the file has null, undefined where the frame lacks the key. */
  values: Record<string, (number | null | undefined)[]>;
  pooled: Record<string, PooledScores | undefined>;
  aggregate: Record<string, number | null>;
  run?: RunSettings;
}

/** libvmaf's model outputs (vmaf, vmaf_bagging, vmaf_0001, vmaf_neg, ...); `VMAF_integer_feature_*` are features. */
export function isModelKey(key: string): boolean {
  return key.startsWith("vmaf");
}

function issuePath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const p of path) out += typeof p === "number" ? `[${p}]` : `${out ? "." : ""}${String(p)}`;
  return out || "(root)";
}

/** Validates parsed JSON; errors name `source` and the bad field (`frames[3].metrics.vmaf`). */
export function parseReportData(json: unknown, source: string, run?: RunSettings): ReportData {
  const r = resultJsonSchema.safeParse(json);
  if (!r.success) {
    const i = r.error.issues[0]!;
    throw new VqError(`${source}: ${issuePath(i.path)}: ${i.message}`);
  }
  const d = r.data;
  const seen = new Map<number, number>();
  d.frames.forEach((f, i) => {
    const first = seen.get(f.frameNum);
    if (first !== undefined) throw new VqError(`${source}: frames[${i}].frameNum: frame ${f.frameNum} appears twice (also frames[${first}])`);
    seen.set(f.frameNum, i);
  });
  const frames = [...d.frames].sort((a, b) => a.frameNum - b.frameNum);
  const keys: string[] = [];
  const known = new Set<string>();
  for (const f of frames) {
    for (const k of Object.keys(f.metrics)) {
      if (!known.has(k)) keys.push(k);
      known.add(k);
    }
  }
  const values: ReportData["values"] = {};
  for (const k of keys) values[k] = frames.map((f) => f.metrics[k]);
  const pooledScores: ReportData["pooled"] = {};
  for (const [k, p] of Object.entries(d.pooled_metrics)) pooledScores[k] = "min" in p ? (p as PooledScores) : undefined;
  return {
    source,
    version: d.version,
    fps: d.fps,
    frameNums: frames.map((f) => f.frameNum),
    keys,
    modelKeys: keys.filter(isModelKey),
    featureKeys: keys.filter((k) => !isModelKey(k)),
    values,
    pooled: pooledScores,
    aggregate: d.aggregate_metrics,
    run,
  };
}

/** The key whose low frames matter most: vmaf, else the first model key, else the first score. */
export function primaryKey(data: ReportData): string | undefined {
  return data.modelKeys.includes("vmaf") ? "vmaf" : (data.modelKeys[0] ?? data.keys[0]);
}

export interface RankedFrame {
  frameNum: number;
  value: number;
  /** Index into frameNums / values. */
  index: number;
}

/** The `n` frames with the lowest `key`; null (infinite) and missing values never rank as worst. */
export function worstFrames(data: ReportData, key: string, n: number): RankedFrame[] {
  const ranked: RankedFrame[] = [];
  data.values[key]?.forEach((v, index) => {
    if (typeof v === "number") ranked.push({ frameNum: data.frameNums[index]!, value: v, index });
  });
  ranked.sort((a, b) => a.value - b.value || a.frameNum - b.frameNum);
  return ranked.slice(0, n);
}

/**
 * A bootstrap model's confidence interval around `key` (`vmaf_ci_p95_lo` / `_hi` for
 * `vmaf`), when the file has both ends; `level` is the percentage in the key.
 */
export function confidenceInterval(data: ReportData, key: string): { lo: string; hi: string; level: string } | undefined {
  for (const lo of data.keys) {
    const m = lo.startsWith(`${key}_ci_p`) ? /^_ci_p(\d+)_lo$/.exec(lo.slice(key.length)) : null;
    if (m && data.keys.includes(`${key}_ci_p${m[1]}_hi`)) return { lo, hi: `${key}_ci_p${m[1]}_hi`, level: m[1]! };
  }
  return undefined;
}

/** How many frames have `null` for `key`. */
export function nullCount(data: ReportData, key: string): number {
  return data.values[key]?.filter((v) => v === null).length ?? 0;
}
