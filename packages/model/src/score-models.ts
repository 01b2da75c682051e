import { VqError, type FeatureCollector } from "@vq/core";
import { bootstrapKeys, bootstrapScores } from "./bootstrap.ts";
import { finiteScore, finishScore, framePrediction, readFeatures } from "./predict.ts";
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
export function checkModelKeys(models: readonly LoadedModel[], collector: FeatureCollector): void {
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
 * Appends the models' scores for one frame whose features are all in the collector:
 * each model's score, then each bootstrap collection's models, `_bagging`, `_stddev`,
 * `_ci_p95_lo`, `_ci_p95_hi`. Frame by frame this writes the keys in libvmaf's order.
 */
export function scoreModelsAtFrame(models: readonly LoadedModel[], collector: FeatureCollector, index: number): void {
  for (const { model } of models) {
    const raw = framePrediction(model, readFeatures(model, collector, index), index);
    collector.append(model.name, index, finiteScore(model, index, finishScore(model, raw)));
  }
  for (const { model, bootstrap } of models) {
    if (!bootstrap) continue;
    const [bagging, stddev, low, high] = bootstrapKeys(bootstrap) as [string, string, string, string];
    const s = bootstrapScores(bootstrap, collector, index);
    bootstrap.models.forEach((m, k) => collector.append(m.name, index, finiteScore(m, index, s.models[k]!)));
    const statistic = (key: string, v: number) => collector.append(key, index, finiteScore(model, index, v, `the score ${key}`));
    statistic(bagging, s.bagging);
    statistic(stddev, s.stddev);
    statistic(low, s.ciLow);
    statistic(high, s.ciHigh);
  }
}

/** Appends every scored frame's model scores (libvmaf's vmaf tool, after extraction). */
export function scoreModels(models: readonly LoadedModel[], collector: FeatureCollector, options: ScoreModelsOptions): void {
  checkModelKeys(models, collector);
  for (const i of scoredFrames(options)) scoreModelsAtFrame(models, collector, i);
}
