import { VqError, type FeatureCollector } from "@vq/core";
import { bootstrapKeys, bootstrapScores } from "./bootstrap.ts";
import { predictScore, readFeatures } from "./predict.ts";
import type { LoadedModel } from "./vmaf-model.ts";

export interface ScoreModelsOptions {
  /** Frames 0 .. frameCount − 1 hold the features. */
  readonly frameCount: number;
  /** Score every n-th frame only (libvmaf's --subsample). */
  readonly subsample?: number;
}

/** Every key the models will write, in libvmaf's order. */
export function modelScoreKeys(models: readonly LoadedModel[]): string[] {
  const keys = models.map((m) => m.model.name);
  for (const { bootstrap } of models) if (bootstrap) keys.push(...bootstrap.models.map((m) => m.name), ...bootstrapKeys(bootstrap));
  return keys;
}

/**
 * Refuses score keys that collide (two models both called `vmaf`) or that the collector
 * already holds. libvmaf would silently reuse the first model's scores for a second
 * model of the same name; naming the clash is more useful.
 */
function checkKeys(models: readonly LoadedModel[], collector: FeatureCollector): void {
  const seen = new Set<string>();
  const existing = new Set(collector.names());
  for (const key of modelScoreKeys(models)) {
    if (seen.has(key)) throw new VqError(`two models write the score "${key}": give each model its own name=`);
    if (existing.has(key)) throw new VqError(`the score "${key}" already exists as a feature: give the model another name=`);
    seen.add(key);
  }
}

function scoredFrames(options: ScoreModelsOptions): number[] {
  const frames: number[] = [];
  const subsample = options.subsample ?? 1;
  for (let i = 0; i < options.frameCount; i++) if (subsample <= 1 || i % subsample === 0) frames.push(i);
  return frames;
}

/**
 * Appends the models' per-frame scores to the collector as libvmaf's vmaf tool does after
 * extraction: each model over all frames, in the given order (vmaf_score_pooled), then
 * each bootstrap collection frame by frame: its models' scores, then `_bagging`,
 * `_stddev`, `_ci_p95_lo`, `_ci_p95_hi` (vmaf_score_pooled_model_collection).
 */
export function scoreModels(models: readonly LoadedModel[], collector: FeatureCollector, options: ScoreModelsOptions): void {
  checkKeys(models, collector);
  const frames = scoredFrames(options);
  for (const { model } of models) {
    for (const i of frames) collector.append(model.name, i, predictScore(model, readFeatures(model, collector, i)));
  }
  for (const { bootstrap } of models) {
    if (!bootstrap) continue;
    const [bagging, stddev, low, high] = bootstrapKeys(bootstrap) as [string, string, string, string];
    for (const i of frames) {
      const s = bootstrapScores(bootstrap, collector, i);
      bootstrap.models.forEach((m, k) => collector.append(m.name, i, s.models[k]!));
      collector.append(bagging, i, s.bagging);
      collector.append(stddev, i, s.stddev);
      collector.append(low, i, s.ciLow);
      collector.append(high, i, s.ciHigh);
    }
  }
}
