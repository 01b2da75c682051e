import { defineOptions } from "@vq/core";
import type { ModelExtractor } from "./model-extractor.ts";

// libvmaf's integer_adm.h / integer_vif.h / integer_motion.c defaults.
const ADM_ENHN_GAIN_LIMIT = 100.0;
const VIF_ENHN_GAIN_LIMIT = 100.0;
const MOTION_MAX_VAL = 10000.0;

export const integerAdm: ModelExtractor = {
  name: "adm",
  provides: [
    "VMAF_integer_feature_adm2_score", "VMAF_integer_feature_aim_score", "VMAF_integer_feature_adm3_score",
    "integer_adm_scale0", "integer_adm_scale1", "integer_adm_scale2", "integer_adm_scale3",
    "integer_adm", "integer_adm_num", "integer_adm_den",
    "integer_adm_num_scale0", "integer_adm_den_scale0", "integer_adm_num_scale1", "integer_adm_den_scale1",
    "integer_adm_num_scale2", "integer_adm_den_scale2", "integer_adm_num_scale3", "integer_adm_den_scale3",
  ],
  options: defineOptions("adm", {
    debug: { type: "bool", default: false, help: "debug mode: enable additional output" },
    adm_csf_scale: { type: "double", default: 1.0, min: 0, max: 50, alias: "scf", featureParam: true, help: "CSF scale for the horizontal and vertical terms" },
    adm_csf_diag_scale: { type: "double", default: 1.0, min: 0, max: 50, alias: "scfd", featureParam: true, help: "CSF scale for the diagonal term" },
    adm_dlm_weight: { type: "double", default: 0.5, min: 0, max: 1, alias: "dlmw", featureParam: true, help: "weight between DLM and AIM (1 = DLM only)" },
    adm_enhn_gain_limit: { type: "double", default: ADM_ENHN_GAIN_LIMIT, min: 1, max: ADM_ENHN_GAIN_LIMIT, alias: "egl", featureParam: true, help: "enhancement gain limit (1 = no gain)" },
    adm_norm_view_dist: { type: "double", default: 3.0, min: 0.75, max: 24, alias: "nvd", featureParam: true, help: "viewing distance / display height" },
    adm_ref_display_height: { type: "int", default: 1080, min: 1, max: 4320, alias: "rdh", featureParam: true, help: "reference display height in pixels" },
    adm_csf_mode: { type: "int", default: 0, min: 0, max: 3, alias: "csf", featureParam: true, help: "contrast sensitivity function" },
    adm_noise_weight: { type: "double", default: 0.03125, min: 0, max: 1500, alias: "nw", featureParam: true, help: "noise weight" },
    adm_skip_aim: { type: "bool", default: false, help: "skip the calculation of AIM" },
    adm_skip_scale0: { type: "bool", default: false, alias: "ssz", featureParam: true, help: "skip the calculation of scale 0" },
    adm_min_val: { type: "double", default: 0.0, min: 0, max: 1, alias: "min", featureParam: true, help: "lower clip of the score" },
  }),
};

export const integerVif: ModelExtractor = {
  name: "vif",
  provides: [
    "VMAF_integer_feature_vif_scale0_score", "VMAF_integer_feature_vif_scale1_score",
    "VMAF_integer_feature_vif_scale2_score", "VMAF_integer_feature_vif_scale3_score",
    "integer_vif", "integer_vif_num", "integer_vif_den", "integer_vif_num_scale0",
    "integer_vif_den_scale0", "integer_vif_num_scale1", "integer_vif_den_scale1",
    "integer_vif_num_scale2", "integer_vif_den_scale2", "integer_vif_num_scale3",
    "integer_vif_den_scale3",
  ],
  options: defineOptions("vif", {
    debug: { type: "bool", default: false, help: "debug mode: enable additional output" },
    vif_enhn_gain_limit: { type: "double", default: VIF_ENHN_GAIN_LIMIT, min: 1, max: VIF_ENHN_GAIN_LIMIT, alias: "egl", featureParam: true, help: "enhancement gain limit (1 = no gain)" },
    vif_skip_scale0: { type: "bool", default: false, alias: "ssclz", featureParam: true, help: "skip scale 0" },
  }),
};

export const integerMotion: ModelExtractor = {
  name: "motion",
  provides: [
    "VMAF_integer_feature_motion_sad_score", "VMAF_integer_feature_motion_score",
    "VMAF_integer_feature_motion2_score", "VMAF_integer_feature_motion3_score",
  ],
  options: defineOptions("motion", {
    motion_force_zero: { type: "bool", default: false, alias: "force_0", featureParam: true, help: "force the motion score to zero" },
    motion_blend_factor: { type: "double", default: 1.0, min: 0, max: 1, alias: "mbf", featureParam: true, help: "blend motion score given an offset" },
    motion_blend_offset: { type: "double", default: 40.0, min: 0, max: 1000, alias: "mbo", featureParam: true, help: "blend motion score from this offset" },
    motion_fps_weight: { type: "double", default: 1.0, min: 0, max: 5, alias: "mfw", featureParam: true, help: "fps-aware multiplicative weight" },
    motion_max_val: { type: "double", default: MOTION_MAX_VAL, min: 0, max: MOTION_MAX_VAL, alias: "mmxv", featureParam: true, help: "upper clip of the score" },
    motion_five_frame_window: { type: "bool", default: false, alias: "mffw", featureParam: true, help: "five-frame temporal window" },
    motion_moving_average: { type: "bool", default: false, alias: "mma", featureParam: true, help: "moving average after the first frame" },
    debug: { type: "bool", default: false, help: "debug mode: enable additional output" },
  }),
};
