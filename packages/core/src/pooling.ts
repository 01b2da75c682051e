import type { FeatureCollector } from "./extraction/feature-collector.ts";

export type PoolMethod = "min" | "max" | "mean" | "harmonic_mean";
export const POOL_METHODS: readonly PoolMethod[] = ["min", "max", "mean", "harmonic_mean"];

export interface PooledScore {
  min: number;
  max: number;
  mean: number;
  harmonic_mean: number;
}

/**
 * libvmaf's vmaf_feature_score_pooled over frames [low, high], every `subsample`-th
 * frame: same summation order, harmonic mean as n / Σ 1/(s+1) − 1. Returns undefined
 * when a frame in range has no score (libvmaf then leaves the feature's pool out).
 */
export function poolScores(get: (index: number) => number | undefined, low: number, high: number, subsample = 1): PooledScore | undefined {
  let count = 0;
  let min = 0;
  let max = 0;
  let sum = 0;
  let inverseSum = 0;
  for (let i = low; i <= high; i++) {
    if (subsample > 1 && i % subsample) continue;
    count++;
    const s = get(i);
    if (s === undefined) return undefined;
    sum += s;
    inverseSum += 1 / (s + 1);
    if (i === low || s < min) min = s;
    if (i === low || s > max) max = s;
  }
  return { min, max, mean: sum / count, harmonic_mean: count / inverseSum - 1.0 };
}

export function poolFeature(collector: FeatureCollector, name: string, frameCount: number, subsample = 1): PooledScore | undefined {
  if (frameCount < 1) return undefined;
  const scores = collector.scores(name);
  if (!scores) return undefined;
  return poolScores((i) => scores.get(i), 0, frameCount - 1, subsample);
}
