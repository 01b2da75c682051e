import type { FeatureCollector, FeatureExtractor, PictureFormat, PicturePair } from "@vq/core";
import { AdmPipeline, SIMD_PROFILES, type AdmSettings, type SimdProfile } from "./adm-pipeline.ts";
import { appendAdmFrame } from "./adm-scale-scores.ts";
import { ADM_DEBUG_FEATURES, ADM_FEATURES, admDefinition, admFeatureName, admOptions, type AdmOptions } from "../definition.ts";

export function admSettings(options: AdmOptions, simd: SimdProfile = SIMD_PROFILES.avx512): AdmSettings {
  return {
    simd,
    mode: options.adm_csf_mode,
    normViewDist: options.adm_norm_view_dist,
    refDisplayHeight: options.adm_ref_display_height,
    csfScale: options.adm_csf_scale,
    csfDiagScale: options.adm_csf_diag_scale,
    enhancementGainLimit: options.adm_enhn_gain_limit,
    noiseWeight: options.adm_noise_weight,
    skipAim: options.adm_skip_aim,
    skipScale0: options.adm_skip_scale0,
  };
}

/** libvmaf's integer adm on the CPU, bit-exact. */
export class AdmCpu implements FeatureExtractor<PicturePair> {
  readonly definition = admDefinition;
  private pipeline?: AdmPipeline;
  private readonly names: string[];
  private readonly debugNames: string[];

  /**
   * @param simd the libvmaf build to reproduce; x86 AVX-512 by default (the build the golden data came from).
   */
  constructor(
    readonly options: AdmOptions,
    readonly simd: SimdProfile = SIMD_PROFILES.avx512,
  ) {
    this.names = ADM_FEATURES.map((n) => admFeatureName(n, options));
    this.debugNames = ADM_DEBUG_FEATURES.map((n) => admFeatureName(n, options));
  }

  init(format: PictureFormat): void {
    admDefinition.checkFormat?.(this.options, format);
    this.pipeline = new AdmPipeline(format.width, format.height, format.bitDepth, admSettings(this.options, this.simd));
  }

  extract(frame: PicturePair, index: number, collector: FeatureCollector): void {
    if (!this.pipeline) throw new Error("adm: extract before init");
    const r = this.pipeline.compute(frame.ref.planes[0]!, frame.dist.planes[0]!);
    appendAdmFrame(r, this.options, this.names, this.debugNames, index, collector);
  }

  flush(): void {}

  close(): void {
    this.pipeline = undefined;
  }
}

export function createAdmCpu(options: Partial<AdmOptions> = {}): AdmCpu {
  return new AdmCpu(admOptions.resolve(options));
}
