import { VqError, type FeatureCollector } from "@vq/core";
import { predictSvm } from "./svm-predict.ts";
import { clipScore, transformScore } from "./score-transform.ts";
import type { VmafModel } from "./vmaf-model.ts";

/** The model's raw feature values at one frame, in feature_names order. */
export function readFeatures(model: VmafModel, collector: FeatureCollector, index: number): Float64Array {
  const values = new Float64Array(model.features.length);
  model.features.forEach((f, i) => {
    const v = collector.get(f.key, index);
    if (v === undefined) throw new VqError(`model ${model.name} (${model.source}): no feature ${f.key} at frame ${index}`);
    values[i] = v;
  });
  return values;
}

/**
 * libvmaf's post_process_feature_from_another for the v1 models: when speed_chroma
 * (de-normalised) is exactly 0, it is replaced by c − c·adm3, normalised again.
 */
function correctChroma(model: VmafModel, c: number, x: Float64Array): void {
  const rescale = model.normalization === "linear_rescale";
  const denormalize = (i: number) => (rescale ? (x[i]! - model.features[i]!.intercept) / model.features[i]!.slope : x[i]!);
  let guiding = 0;
  let guided = -1;
  for (let i = 0; i < model.features.length; i++) {
    const name = model.features[i]!.name;
    if (name.includes("adm3")) guiding = denormalize(i);
    if (name.includes("speed_chroma")) {
      if (denormalize(i) !== 0.0) return;
      guided = i;
    }
  }
  const corrected = -c * guiding + c;
  const f = model.features[guided]!;
  x[guided] = rescale ? f.slope * corrected + f.intercept : corrected;
}

/**
 * The model's prediction before transform and clip: features normalised
 * (slope·x + intercept), the v1 chroma correction, libsvm, then de-normalised
 * ((y − intercept) / slope), as libvmaf's vmaf_predict_score_at_index computes it.
 */
export function rawPrediction(model: VmafModel, features: Float64Array): number {
  const x = new Float64Array(features.length);
  const rescale = model.normalization === "linear_rescale";
  model.features.forEach((f, i) => {
    x[i] = rescale ? f.slope * features[i]! + f.intercept : features[i]!;
  });
  if (model.chromaCorrection !== undefined) correctChroma(model, model.chromaCorrection, x);
  const y = predictSvm(model.svm, x);
  return rescale ? (y - model.intercept) / model.slope : y;
}

/** The model's own transform (when enabled) and clip (unless disable_clip), in libvmaf's order. */
export function finishScore(model: VmafModel, raw: number): number {
  let y = raw;
  if (model.transform) y = transformScore(model.transform, y);
  if (model.clip) y = clipScore(model.clip, y);
  return y;
}

/** The score libvmaf writes for the model at one frame. */
export function predictScore(model: VmafModel, features: Float64Array): number {
  return finishScore(model, rawPrediction(model, features));
}

/**
 * rawPrediction at one frame, refused when it is not a finite number: clipped it would
 * pin the score at a bound, unclipped it would be written as null. The error names the
 * model and the frame, and the input that was not a number when one was.
 */
export function framePrediction(model: VmafModel, features: Float64Array, frame: number): number {
  return finiteScore(model, frame, rawPrediction(model, features), "the prediction", features);
}

/** `score` itself when it is a finite number, else the error naming the model and the frame. */
export function finiteScore(model: VmafModel, frame: number, score: number, what = `the score ${model.name}`, features?: Float64Array): number {
  if (Number.isFinite(score)) return score;
  const odd = features ? model.features.findIndex((_, i) => !Number.isFinite(features[i]!)) : -1;
  const cause = odd >= 0 ? `its input ${model.features[odd]!.key} is ${features![odd]}` : "check the model's numbers";
  throw new VqError(`model ${model.name} (${model.source}): frame ${frame}: ${what} is ${score}, not a finite number (${cause})`);
}
