import type { FeatureCollector } from "@vq/core";
import type { VifFeatureNames, VifOptions } from "../definition.ts";

/**
 * libvmaf's write_scores for one frame, from the four scales' numerators and denominators
 * as floats (num at 2s, den at 2s+1). Each scale's score is a float division; the
 * combined debug score sums the scales in double. Shared by every backend.
 */
export function writeVifScores(collector: FeatureCollector, index: number, names: VifFeatureNames, options: VifOptions, numDen: Float32Array): void {
  const skip0 = options.vif_skip_scale0;
  for (let s = 0; s < 4; s++) {
    const score = s === 0 && skip0 ? 0 : Math.fround(numDen[2 * s]! / numDen[2 * s + 1]!);
    collector.append(names.scale[s]!, index, score);
  }
  if (options.debug) writeVifDebugScores(collector, index, names, skip0, numDen);
}

/**
 * The debug outputs both vif and float_vif write alike: the scales' numerators and
 * denominators (num at 2s, den at 2s+1) summed in double, their ratio, and each scale's own.
 */
export function writeVifDebugScores(collector: FeatureCollector, index: number, names: VifFeatureNames, skip0: boolean, numDen: ArrayLike<number>): void {
  let num = 0;
  let den = 0;
  for (let s = skip0 ? 1 : 0; s < 4; s++) {
    num += numDen[2 * s]!;
    den += numDen[2 * s + 1]!;
  }
  collector.append(names.vif, index, den === 0 ? 1 : num / den);
  collector.append(names.num, index, num);
  collector.append(names.den, index, den);
  for (let s = 0; s < 4; s++) {
    // a skipped scale 0 is reported as 0 / -1
    collector.append(names.numScale[s]!, index, s === 0 && skip0 ? 0 : numDen[2 * s]!);
    collector.append(names.denScale[s]!, index, s === 0 && skip0 ? -1 : numDen[2 * s + 1]!);
  }
}
