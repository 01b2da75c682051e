import type { FeatureCollector } from "@vq/core";
import type { FloatVifFeatureNames, FloatVifOptions } from "../float-vif-definition.ts";
import { writeVifDebugScores } from "./vif-scores.ts";

/**
 * float_vif's extract scores for one frame from the four scales' float numerators and
 * denominators (num at 2s, den at 2s+1): double divisions, scales 1-3 floored at their
 * min_val options, and in debug the sums over the scales (compute_vif), as vif's.
 */
export function writeFloatVifScores(collector: FeatureCollector, index: number, names: FloatVifFeatureNames, options: FloatVifOptions, scores: Float64Array): void {
  const skip0 = options.vif_skip_scale0;
  const minVal = [0, options.vif_scale1_min_val, options.vif_scale2_min_val, options.vif_scale3_min_val];
  collector.append(names.scale[0]!, index, skip0 ? 0 : scores[0]! / scores[1]!);
  for (let s = 1; s < 4; s++) {
    const ratio = scores[2 * s]! / scores[2 * s + 1]!;
    collector.append(names.scale[s]!, index, ratio > minVal[s]! ? ratio : minVal[s]!);
  }
  if (options.debug) writeVifDebugScores(collector, index, names, skip0, scores);
}
