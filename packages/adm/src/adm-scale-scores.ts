import type { FeatureCollector } from "@vq/core";
import type { AdmOptions } from "./definition.ts";

/**
 * adm2, aim, adm3 and the per-scale ratios from one frame's sums, in libvmaf's order and
 * double arithmetic; shared by the CPU pipeline and any GPU twin.
 */
export function admScaleScores(
  score: number,
  aim: number,
  scales: Float64Array,
  options: AdmOptions,
  names: readonly string[],
  index: number,
  collector: FeatureCollector,
): void {
  const weight = options.adm_dlm_weight;
  const adm3 = score * weight + (1 - aim) * (1 - weight);
  collector.append(names[0]!, index, score);
  collector.append(names[1]!, index, aim);
  collector.append(names[2]!, index, adm3 > options.adm_min_val ? adm3 : options.adm_min_val);
  for (let s = 0; s < 4; s++) collector.append(names[3 + s]!, index, scales[2 * s]! / scales[2 * s + 1]!);
}
