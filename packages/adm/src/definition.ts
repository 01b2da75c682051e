import { defineOptions, VqError, type ExtractorDefinition, type OptionValues, type PictureFormat } from "@vq/core";

/** libvmaf's integer adm options: names, types, defaults, ranges, aliases and feature-parameter flags. */
export const admOptions = defineOptions("adm", {
  debug: { type: "bool", default: false, help: "debug mode: enable additional output" },
  adm_csf_scale: {
    type: "double",
    default: 1.0,
    min: 0.0,
    max: 50.0,
    alias: "scf",
    featureParam: true,
    help: "scale coefficient for the horizontal & vertical direction terms of CSF",
  },
  adm_csf_diag_scale: {
    type: "double",
    default: 1.0,
    min: 0.0,
    max: 50.0,
    alias: "scfd",
    featureParam: true,
    help: "scale coefficient for the diagonal direction term of CSF",
  },
  adm_dlm_weight: {
    type: "double",
    default: 0.5,
    min: 0.0,
    max: 1.0,
    alias: "dlmw",
    featureParam: true,
    help: "linear weighting between DLM and AIM; 1 corresponds to DLM-only",
  },
  adm_enhn_gain_limit: {
    type: "double",
    default: 100.0,
    min: 1.0,
    max: 100.0,
    alias: "egl",
    featureParam: true,
    help: "enhancement gain imposed on adm, must be >= 1.0, where 1.0 means the gain is completely disabled",
  },
  adm_norm_view_dist: {
    type: "double",
    default: 3.0,
    min: 0.75,
    max: 24.0,
    alias: "nvd",
    featureParam: true,
    help: "normalized viewing distance = viewing distance / ref display's physical height",
  },
  adm_ref_display_height: {
    type: "int",
    default: 1080,
    min: 1,
    max: 4320,
    alias: "rdh",
    featureParam: true,
    help: "reference display height in pixels",
  },
  adm_csf_mode: { type: "int", default: 0, min: 0, max: 3, alias: "csf", featureParam: true, help: "contrast sensitivity function" },
  adm_noise_weight: { type: "double", default: 0.03125, min: 0.0, max: 1500.0, alias: "nw", featureParam: true, help: "noise weight" },
  adm_skip_aim: { type: "bool", default: false, help: "skip the calculation of AIM" },
  adm_skip_scale0: { type: "bool", default: false, alias: "ssz", featureParam: true, help: "skip the calculation of scale 0" },
  adm_min_val: {
    type: "double",
    default: 0.0,
    min: 0.0,
    max: 1.0,
    alias: "min",
    featureParam: true,
    help: "minimum value allowed; lower values will be clipped to this value",
  },
});

export type AdmOptions = OptionValues<typeof admOptions.defs>;

/** libvmaf's alias table entries for adm's outputs. */
const ALIASES: Record<string, string> = {
  VMAF_integer_feature_adm2_score: "integer_adm2",
  VMAF_integer_feature_aim_score: "integer_aim",
  VMAF_integer_feature_adm3_score: "integer_adm3",
};

/** Outputs written every frame, in libvmaf's order. */
export const ADM_FEATURES = [
  "VMAF_integer_feature_adm2_score",
  "VMAF_integer_feature_aim_score",
  "VMAF_integer_feature_adm3_score",
  "integer_adm_scale0",
  "integer_adm_scale1",
  "integer_adm_scale2",
  "integer_adm_scale3",
] as const;

/** Outputs added by debug=true. */
export const ADM_DEBUG_FEATURES = [
  "integer_adm",
  "integer_adm_num",
  "integer_adm_den",
  "integer_adm_num_scale0",
  "integer_adm_den_scale0",
  "integer_adm_num_scale1",
  "integer_adm_den_scale1",
  "integer_adm_num_scale2",
  "integer_adm_den_scale2",
  "integer_adm_num_scale3",
  "integer_adm_den_scale3",
] as const;

/** The key libvmaf writes for a provided feature: alias, then the non-default feature parameters. */
export function admFeatureName(feature: string, options: AdmOptions): string {
  return admOptions.featureName(ALIASES[feature] ?? feature, options);
}

/** Smallest luma size whose coarsest DWT scale still has the 5 samples libvmaf's mirroring needs. */
export const ADM_MIN_SIZE = 33;

export const admDefinition: ExtractorDefinition<typeof admOptions.defs> = {
  name: "adm",
  options: admOptions,
  temporal: false,
  providedFeatures(options) {
    const names = options.debug ? [...ADM_FEATURES, ...ADM_DEBUG_FEATURES] : [...ADM_FEATURES];
    return names.map((n) => admFeatureName(n, options));
  },
  checkFormat(options, format: PictureFormat) {
    if (format.bitDepth !== 8 && format.bitDepth !== 10 && format.bitDepth !== 12 && format.bitDepth !== 16) {
      throw new VqError(`feature adm: ${format.bitDepth}-bit input is not supported (libvmaf's adm takes 8, 10, 12 or 16 bits)`);
    }
    if (format.width < ADM_MIN_SIZE || format.height < ADM_MIN_SIZE) {
      throw new VqError(`feature adm: ${format.width}x${format.height} is too small (at least ${ADM_MIN_SIZE}x${ADM_MIN_SIZE}: four DWT scales)`);
    }
    if (options.adm_norm_view_dist * options.adm_ref_display_height < 3.0 * 1080) {
      // libvmaf's extract() fails the same way: its 16-bit scale-0 pipeline needs at least 1080 lines at 3H
      throw new VqError(
        `feature adm: adm_norm_view_dist * adm_ref_display_height must be at least 3240 (1080 lines at 3H), got ${options.adm_norm_view_dist} * ${options.adm_ref_display_height}`,
      );
    }
  },
};
