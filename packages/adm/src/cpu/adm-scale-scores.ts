import type { FeatureCollector } from "@vq/core";
import type { AdmScores } from "./adm-pipeline.ts";
import type { AdmOptions } from "../definition.ts";

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

/** Every output of one frame: the scores above and, with debug=true, the sums libvmaf's debug mode writes. */
export function appendAdmFrame(r: AdmScores, options: AdmOptions, names: readonly string[], debugNames: readonly string[], index: number, collector: FeatureCollector): void {
  admScaleScores(r.score, r.aim, r.scales, options, names, index, collector);
  if (!options.debug) return;
  collector.append(debugNames[0]!, index, r.score);
  collector.append(debugNames[1]!, index, r.num);
  collector.append(debugNames[2]!, index, r.den);
  for (let i = 0; i < 8; i++) collector.append(debugNames[3 + i]!, index, r.scales[i]!);
}
