import type { FeatureCollector } from "@vq/core";
import type { FloatVifFeatureNames, FloatVifOptions } from "./float-vif-definition.ts";

/**
 * float_vif's extract scores for one frame from the four scales' float numerators and
 * denominators (num at 2s, den at 2s+1): double divisions, scales 1-3 floored at their
 * min_val options, and in debug the sums over the scales computed (compute_vif).
 */
export function writeFloatVifScores(collector: FeatureCollector, index: number, names: FloatVifFeatureNames, options: FloatVifOptions, scores: Float64Array): void {
  const skip0 = options.vif_skip_scale0;
  const minVal = [0, options.vif_scale1_min_val, options.vif_scale2_min_val, options.vif_scale3_min_val];
  collector.append(names.scale[0]!, index, skip0 ? 0 : scores[0]! / scores[1]!);
  for (let s = 1; s < 4; s++) {
    const ratio = scores[2 * s]! / scores[2 * s + 1]!;
    collector.append(names.scale[s]!, index, ratio > minVal[s]! ? ratio : minVal[s]!);
  }
  if (!options.debug) return;

  let num = 0;
  let den = 0;
  for (let s = skip0 ? 1 : 0; s < 4; s++) {
    num += scores[2 * s]!;
    den += scores[2 * s + 1]!;
  }
  collector.append(names.vif, index, den === 0 ? 1 : num / den);
  collector.append(names.num, index, num);
  collector.append(names.den, index, den);
  for (let s = 0; s < 4; s++) {
    // a skipped scale 0 is reported as 0 / -1
    collector.append(names.numScale[s]!, index, s === 0 && skip0 ? 0 : scores[2 * s]!);
    collector.append(names.denScale[s]!, index, s === 0 && skip0 ? -1 : scores[2 * s + 1]!);
  }
}
