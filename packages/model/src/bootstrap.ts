import type { FeatureCollector } from "@vq/core";
import { finishScore, framePrediction, readFeatures } from "./predict.ts";
import type { BootstrapCollection } from "./vmaf-model.ts";

export interface BootstrapScores {
  /** Per bootstrap model, transformed and clipped as that model says. */
  models: number[];
  bagging: number;
  stddev: number;
  ciLow: number;
  ciHigh: number;
}

/** libvmaf's percentile(): linear interpolation between the sorted neighbours. */
function percentile(sorted: readonly number[], percent: number): number {
  const p = (percent * (sorted.length - 1)) / 100;
  const lo = Math.floor(p);
  const hi = Math.ceil(p);
  return lo === hi ? sorted[lo]! : sorted[lo]! * (hi - p) + sorted[hi]! * (p - lo);
}

/** The delta of libvmaf's numerical derivative of transform+clip around the mean. */
const DELTA = 0.01;

/**
 * libvmaf's vmaf_bootstrap_predict_score_at_index: statistics over the raw (untransformed,
 * unclipped) predictions; the mean and the 95% interval are then transformed and clipped
 * by the first bootstrap model, and the standard deviation scaled by the slope of that
 * transform+clip around the mean.
 */
export function bootstrapScores(collection: BootstrapCollection, collector: FeatureCollector, index: number): BootstrapScores {
  const raw: number[] = [];
  const models: number[] = [];
  for (const m of collection.models) {
    const r = framePrediction(m, readFeatures(m, collector, index), index);
    raw.push(r);
    models.push(finishScore(m, r));
  }
  const n = raw.length;
  let sum = 0;
  for (const r of raw) sum += r;
  const mean = sum / n;
  let ssd = 0;
  for (const r of raw) ssd += (r - mean) * (r - mean); // pow(d, 2): GCC folds it to d * d
  let stddev = Math.sqrt(ssd / n);
  const sorted = [...raw].sort((a, b) => (a > b ? 1 : a < b ? -1 : 0));
  const first = collection.models[0]!;
  const finish = (x: number) => finishScore(first, x);
  const slope = (finish(mean + DELTA) - finish(mean - DELTA)) / (2.0 * DELTA);
  stddev *= slope;
  return {
    models,
    bagging: finish(mean),
    stddev,
    ciLow: finish(percentile(sorted, 2.5)),
    ciHigh: finish(percentile(sorted, 97.5)),
  };
}

/** Keys libvmaf writes for the collection statistics, in its order. */
export function bootstrapKeys(collection: BootstrapCollection): string[] {
  return ["_bagging", "_stddev", "_ci_p95_lo", "_ci_p95_hi"].map((s) => collection.name + s);
}
