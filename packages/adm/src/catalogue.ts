// adm's and float_adm's catalogue entries (adr/0022-extractor-catalogue.md): facts only;
// the code is loaded on use through `load`.
import { defineOptions, type CatalogueEntry, type OptionDef } from "@vq/core";

/** The options integer adm and float_adm share, as libvmaf defines them in both. */
const SHARED = {
  debug: { type: "bool", default: false, addsOutputs: true, help: "debug mode: enable additional output" },
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
  adm_noise_weight: { type: "double", default: 0.03125, min: 0.0, max: 1500.0, alias: "nw", featureParam: true, help: "noise weight" },
  adm_dlm_weight: {
    type: "double",
    default: 0.5,
    min: 0.0,
    max: 1.0,
    alias: "dlmw",
    featureParam: true,
    help: "linear weighting between DLM and AIM; 1 corresponds to DLM-only",
  },
  adm_min_val: {
    type: "double",
    default: 0.0,
    min: 0.0,
    max: 1.0,
    alias: "min",
    featureParam: true,
    help: "minimum value allowed; lower values will be clipped to this value",
  },
  adm_skip_scale0: { type: "bool", default: false, alias: "ssz", featureParam: true, help: "skip the calculation of scale 0" },
} as const satisfies Record<string, OptionDef>;

/** libvmaf's integer adm options (integer_adm.c): names, types, defaults, ranges, aliases and feature-parameter flags. */
export const admOptions = defineOptions("adm", {
  debug: SHARED.debug,
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
  adm_dlm_weight: SHARED.adm_dlm_weight,
  adm_enhn_gain_limit: SHARED.adm_enhn_gain_limit,
  adm_norm_view_dist: SHARED.adm_norm_view_dist,
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
  adm_noise_weight: SHARED.adm_noise_weight,
  adm_skip_aim: { type: "bool", default: false, help: "skip the calculation of AIM" },
  adm_skip_scale0: SHARED.adm_skip_scale0,
  adm_min_val: SHARED.adm_min_val,
});

/** libvmaf's float_adm options (float_adm.c). */
export const floatAdmOptions = defineOptions("float_adm", {
  debug: SHARED.debug,
  adm_enhn_gain_limit: SHARED.adm_enhn_gain_limit,
  adm_norm_view_dist: SHARED.adm_norm_view_dist,
  adm_noise_weight: SHARED.adm_noise_weight,
  adm_csf_scale: { type: "double", default: 1.0, min: 0.0, max: 50.0, alias: "scf", featureParam: true, help: "scale factor for the CSF" },
  adm_csf_diag_scale: { type: "double", default: 1.0, min: 0.0, max: 50.0, alias: "scfd", featureParam: true, help: "scale factor for the CSF diag" },
  // libvmaf's float_adm spells this alias "rdf" (the integer adm says "rdh")
  adm_ref_display_height: { type: "int", default: 1080, min: 1, max: 4320, alias: "rdf", featureParam: true, help: "reference display height in pixels" },
  adm_csf_mode: { type: "int", default: 0, min: 0, max: 9, alias: "csf", featureParam: true, help: "contrast sensitivity function" },
  adm_bypass_cm: { type: "int", default: 0, min: 0, max: 1, alias: "bcm", featureParam: true, help: "bypass contrast masking (CM)" },
  adm_adm3_apply_hm: { type: "bool", default: false, alias: "aah", featureParam: true, help: "apply harmonic mean to combine DLM and AIM" },
  adm_p_norm: { type: "double", default: 3.0, min: 1.0, max: 20.0, alias: "apn", featureParam: true, help: "p-norm for energy vector" },
  adm_dlm_weight: SHARED.adm_dlm_weight,
  adm_min_val: SHARED.adm_min_val,
  adm_f1s0: { type: "double", default: -1.0, min: -1.0, max: 10.0, alias: "f1s0", featureParam: true, help: "factor1 scale0" },
  adm_f1s1: { type: "double", default: -1.0, min: -1.0, max: 10.0, alias: "f1s1", featureParam: true, help: "factor1 scale1" },
  adm_f1s2: { type: "double", default: -1.0, min: -1.0, max: 10.0, alias: "f1s2", featureParam: true, help: "factor1 scale2" },
  adm_f1s3: { type: "double", default: -1.0, min: -1.0, max: 10.0, alias: "f1s3", featureParam: true, help: "factor1 scale3" },
  adm_f2s0: { type: "double", default: -1.0, min: -1.0, max: 10.0, alias: "f2s0", featureParam: true, help: "factor2 scale0" },
  adm_f2s1: { type: "double", default: -1.0, min: -1.0, max: 10.0, alias: "f2s1", featureParam: true, help: "factor2 scale1" },
  adm_f2s2: { type: "double", default: -1.0, min: -1.0, max: 10.0, alias: "f2s2", featureParam: true, help: "factor2 scale2" },
  adm_f2s3: { type: "double", default: -1.0, min: -1.0, max: 10.0, alias: "f2s3", featureParam: true, help: "factor2 scale3" },
  // libvmaf's default (-1, no scale skipped) lies outside the range a user may set
  adm_skip_aim_scale: { type: "int", default: -1, min: 0, max: 3, alias: "sasc", featureParam: true, help: "when set, skip AIM calculations for that scale" },
  adm_skip_scale0: SHARED.adm_skip_scale0,
});

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

export const FLOAT_ADM_FEATURES = [
  "VMAF_feature_adm2_score",
  "VMAF_feature_aim_score",
  "VMAF_feature_adm3_score",
  "VMAF_feature_adm_scale0_score",
  "VMAF_feature_adm_scale1_score",
  "VMAF_feature_adm_scale2_score",
  "VMAF_feature_adm_scale3_score",
] as const;

export const FLOAT_ADM_DEBUG_FEATURES = [
  "adm",
  "adm_num",
  "adm_den",
  "adm_num_scale0",
  "adm_den_scale0",
  "adm_num_scale1",
  "adm_den_scale1",
  "adm_num_scale2",
  "adm_den_scale2",
  "adm_num_scale3",
  "adm_den_scale3",
] as const;

export const admEntry: CatalogueEntry<typeof admOptions.defs> = {
  name: "adm",
  options: admOptions,
  provides: [...ADM_FEATURES, ...ADM_DEBUG_FEATURES],
  // libvmaf's alias table (feature/alias.c)
  aliases: { VMAF_integer_feature_adm2_score: "integer_adm2", VMAF_integer_feature_aim_score: "integer_aim", VMAF_integer_feature_adm3_score: "integer_adm3" },
  temporal: false,
  lumaOnly: () => true,
  load: { cpu: () => import("./index.ts").then((m) => m.admFeature), gpu: () => import("./index.ts").then((m) => m.admFeature) },
};

export const floatAdmEntry: CatalogueEntry<typeof floatAdmOptions.defs> = {
  name: "float_adm",
  options: floatAdmOptions,
  provides: [...FLOAT_ADM_FEATURES, ...FLOAT_ADM_DEBUG_FEATURES],
  aliases: {
    VMAF_feature_adm2_score: "adm2",
    VMAF_feature_aim_score: "aim",
    VMAF_feature_adm3_score: "adm3",
    VMAF_feature_adm_scale0_score: "adm_scale0",
    VMAF_feature_adm_scale1_score: "adm_scale1",
    VMAF_feature_adm_scale2_score: "adm_scale2",
    VMAF_feature_adm_scale3_score: "adm_scale3",
  },
  temporal: false,
  lumaOnly: () => true,
  load: { cpu: () => import("./index.ts").then((m) => m.floatAdmFeature) },
};
