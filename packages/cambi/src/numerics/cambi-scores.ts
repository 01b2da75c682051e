import type { FeatureCollector } from "@vq/core";
import { NUM_SCALES, SCALE_WEIGHTS, type CambiPlan } from "./cambi-plan.ts";
import { CAMBI_FULL_REFERENCE, CAMBI_SOURCE } from "../definition.ts";

/** A picture's cambi (unclipped): the scales' pooled c-values weighted 16:8:4:2:1, per window pixel. */
export function combineScales(perScale: Float64Array, windowSize: number): number {
  let score = 0;
  for (let scale = 0; scale < NUM_SCALES; scale++) score += perScale[scale]! * SCALE_WEIGHTS[scale]!;
  return score / (windowSize * windowSize);
}

/** One frame's outputs: the distorted picture's cambi and, with full_ref, the source's and their difference, clipped. */
export function appendCambiScores(collector: FeatureCollector, index: number, scoreName: string, plan: CambiPlan, dist: number, src: number): void {
  collector.append(scoreName, index, Math.min(dist, plan.maxVal));
  if (plan.fullRef) {
    collector.append(CAMBI_SOURCE, index, Math.min(src, plan.maxVal));
    collector.append(CAMBI_FULL_REFERENCE, index, Math.min(Math.max(0, dist - src), plan.maxVal));
  }
}
