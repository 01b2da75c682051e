import type { FeatureCollector, FeatureExtractor, PictureFormat, PicturePair } from "@vq/core";
import { FloatAdmPipeline, type FloatAdmScores, type FloatAdmSettings } from "./float-adm-pipeline.ts";
import {
  FLOAT_ADM_DEBUG_FEATURES,
  FLOAT_ADM_FEATURES,
  floatAdmDefinition,
  floatAdmFeatureName,
  floatAdmOptions,
  type FloatAdmOptions,
} from "../float-adm-definition.ts";

export function floatAdmSettings(o: FloatAdmOptions): FloatAdmSettings {
  return {
    mode: o.adm_csf_mode,
    normViewDist: o.adm_norm_view_dist,
    refDisplayHeight: o.adm_ref_display_height,
    csfScale: o.adm_csf_scale,
    csfDiagScale: o.adm_csf_diag_scale,
    factor1: [o.adm_f1s0, o.adm_f1s1, o.adm_f1s2, o.adm_f1s3],
    factor2: [o.adm_f2s0, o.adm_f2s1, o.adm_f2s2, o.adm_f2s3],
    enhancementGainLimit: o.adm_enhn_gain_limit,
    noiseWeight: o.adm_noise_weight,
    pNorm: o.adm_p_norm,
    bypassCm: o.adm_bypass_cm !== 0,
    skipAimScale: o.adm_skip_aim_scale,
    skipScale0: o.adm_skip_scale0,
  };
}

/** float_adm's extract scores from a frame's sums: adm2, aim, adm3 and the scales, and the debug outputs. */
export function writeFloatAdmScores(collector: FeatureCollector, index: number, o: FloatAdmOptions, names: readonly string[], debugNames: readonly string[], r: FloatAdmScores): void {
  collector.append(names[0]!, index, r.score);
  collector.append(names[1]!, index, r.aim);
  const adm3 = o.adm_adm3_apply_hm ? (2 * r.score * r.aim) / (r.score + r.aim) : r.score * o.adm_dlm_weight + (1 - r.aim) * (1 - o.adm_dlm_weight);
  collector.append(names[2]!, index, adm3 > o.adm_min_val ? adm3 : o.adm_min_val);
  for (let s = 0; s < 4; s++) collector.append(names[3 + s]!, index, r.scales[2 * s]! / r.scales[2 * s + 1]!);
  if (!o.debug) return;
  collector.append(debugNames[0]!, index, r.score);
  collector.append(debugNames[1]!, index, r.num);
  collector.append(debugNames[2]!, index, r.den);
  for (let i = 0; i < 8; i++) collector.append(debugNames[3 + i]!, index, r.scales[i]!);
}

/** libvmaf's float_adm on the CPU (float arithmetic emulated with Math.fround). */
export class FloatAdmCpu implements FeatureExtractor<PicturePair> {
  readonly definition = floatAdmDefinition;
  private pipeline?: FloatAdmPipeline;
  private readonly names: string[];
  private readonly debugNames: string[];

  constructor(readonly options: FloatAdmOptions) {
    this.names = FLOAT_ADM_FEATURES.map((n) => floatAdmFeatureName(n, options));
    this.debugNames = FLOAT_ADM_DEBUG_FEATURES.map((n) => floatAdmFeatureName(n, options));
  }

  init(format: PictureFormat): void {
    floatAdmDefinition.checkFormat?.(this.options, format);
    this.pipeline = new FloatAdmPipeline(format.width, format.height, format.bitDepth, floatAdmSettings(this.options));
  }

  extract(frame: PicturePair, index: number, collector: FeatureCollector): void {
    if (!this.pipeline) throw new Error("float_adm: extract before init");
    const r = this.pipeline.compute(frame.ref.planes[0]!, frame.dist.planes[0]!);
    writeFloatAdmScores(collector, index, this.options, this.names, this.debugNames, r);
  }

  flush(): void {}

  close(): void {
    this.pipeline = undefined;
  }
}

export function createFloatAdmCpu(options: Partial<FloatAdmOptions> = {}): FloatAdmCpu {
  return new FloatAdmCpu(floatAdmOptions.resolve(options));
}
