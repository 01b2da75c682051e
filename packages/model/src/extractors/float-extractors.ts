import { defineOptions, type OptionDef } from "@vq/core";
import type { ModelExtractor } from "./model-extractor.ts";

// libvmaf's adm_options.h / vif_options.h / float_motion.c defaults.
const ADM_ENHN_GAIN_LIMIT = 100.0;
const VIF_ENHN_GAIN_LIMIT = 100.0;
const MOTION_MAX_VAL = 10000.0;

/** float_adm's per-band CSF factor overrides adm_f1s0 .. adm_f2s3 (-1 = unset). */
function bandFactors(): Record<string, OptionDef> {
  const out: Record<string, OptionDef> = {};
  for (const f of [1, 2]) {
    for (let s = 0; s < 4; s++) {
      out[`adm_f${f}s${s}`] = { type: "double", default: -1, min: -1, max: 10, alias: `f${f}s${s}`, featureParam: true, help: `CSF factor ${f} of scale ${s}` };
    }
  }
  return out;
}

export const floatAdm: ModelExtractor = {
  name: "float_adm",
  provides: [
    "VMAF_feature_adm2_score", "VMAF_feature_aim_score", "VMAF_feature_adm3_score", "VMAF_feature_adm_scale0_score",
    "VMAF_feature_adm_scale1_score", "VMAF_feature_adm_scale2_score", "VMAF_feature_adm_scale3_score",
    "adm_num", "adm_den", "adm_scale0", "adm_num_scale0", "adm_den_scale0", "adm_num_scale1", "adm_den_scale1",
    "adm_num_scale2", "adm_den_scale2", "adm_num_scale3", "adm_den_scale3",
  ],
  options: defineOptions("float_adm", {
    debug: { type: "bool", default: false, help: "debug mode: enable additional output" },
    adm_enhn_gain_limit: { type: "double", default: ADM_ENHN_GAIN_LIMIT, min: 1, max: ADM_ENHN_GAIN_LIMIT, alias: "egl", featureParam: true, help: "enhancement gain limit (1 = no gain)" },
    adm_norm_view_dist: { type: "double", default: 3.0, min: 0.75, max: 24, alias: "nvd", featureParam: true, help: "viewing distance / display height" },
    adm_noise_weight: { type: "double", default: 0.03125, min: 0, max: 1500, alias: "nw", featureParam: true, help: "noise weight" },
    adm_csf_scale: { type: "double", default: 1.0, min: 0, max: 50, alias: "scf", featureParam: true, help: "CSF scale for the horizontal and vertical terms" },
    adm_csf_diag_scale: { type: "double", default: 1.0, min: 0, max: 50, alias: "scfd", featureParam: true, help: "CSF scale for the diagonal term" },
    adm_ref_display_height: { type: "int", default: 1080, min: 1, max: 4320, alias: "rdf", featureParam: true, help: "reference display height in pixels" },
    adm_csf_mode: { type: "int", default: 0, min: 0, max: 9, alias: "csf", featureParam: true, help: "contrast sensitivity function" },
    adm_bypass_cm: { type: "int", default: 0, min: 0, max: 1, alias: "bcm", featureParam: true, help: "bypass contrast masking" },
    adm_adm3_apply_hm: { type: "bool", default: false, alias: "aah", featureParam: true, help: "apply the harmonic mean in adm3" },
    adm_p_norm: { type: "double", default: 3.0, min: 1, max: 20, alias: "apn", featureParam: true, help: "p-norm of the spatial pooling" },
    adm_dlm_weight: { type: "double", default: 0.5, min: 0, max: 1, alias: "dlmw", featureParam: true, help: "weight between DLM and AIM (1 = DLM only)" },
    adm_min_val: { type: "double", default: 0.0, min: 0, max: 1, alias: "min", featureParam: true, help: "lower clip of the score" },
    ...bandFactors(),
    adm_skip_aim_scale: { type: "int", default: -1, min: 0, max: 3, alias: "sasc", featureParam: true, help: "skip AIM from this scale on" },
    adm_skip_scale0: { type: "bool", default: false, alias: "ssz", featureParam: true, help: "skip the calculation of scale 0" },
  }),
};

export const floatVif: ModelExtractor = {
  name: "float_vif",
  provides: [
    "VMAF_feature_vif_scale0_score", "VMAF_feature_vif_scale1_score",
    "VMAF_feature_vif_scale2_score", "VMAF_feature_vif_scale3_score",
    "vif", "vif_num", "vif_den", "vif_num_scale0", "vif_den_scale0",
    "vif_num_scale1", "vif_den_scale1", "vif_num_scale2", "vif_den_scale2",
    "vif_num_scale3", "vif_den_scale3",
  ],
  options: defineOptions("float_vif", {
    debug: { type: "bool", default: false, help: "debug mode: enable additional output" },
    vif_enhn_gain_limit: { type: "double", default: VIF_ENHN_GAIN_LIMIT, min: 1, max: VIF_ENHN_GAIN_LIMIT, alias: "egl", featureParam: true, help: "enhancement gain limit (1 = no gain)" },
    vif_kernelscale: { type: "double", default: 1.0, min: 0.1, max: 4, alias: "ks", featureParam: true, help: "scale of the gaussian kernel" },
    vif_prescale: { type: "double", default: 1.0, min: 0.1, max: 4, alias: "ps", featureParam: true, help: "scale of the frame" },
    vif_scale1_min_val: { type: "double", default: 0.0, min: 0, max: 1, alias: "s1miv", featureParam: true, help: "lower clip of scale 1" },
    vif_scale2_min_val: { type: "double", default: 0.0, min: 0, max: 1, alias: "s2miv", featureParam: true, help: "lower clip of scale 2" },
    vif_scale3_min_val: { type: "double", default: 0.0, min: 0, max: 1, alias: "s3miv", featureParam: true, help: "lower clip of scale 3" },
    vif_prescale_method: { type: "string", default: "nearest", choices: ["nearest", "bilinear", "bicubic", "lanczos4"], alias: "pm", featureParam: true, help: "scaling method of the frame" },
    vif_sigma_nsq: { type: "double", default: 2.0, min: 0, max: 5, alias: "snsq", featureParam: true, help: "neural noise variance" },
    vif_skip_scale0: { type: "bool", default: false, alias: "ssclz", featureParam: true, help: "skip scale 0" },
  }),
};

export const floatMotion: ModelExtractor = {
  name: "float_motion",
  provides: ["VMAF_feature_motion_score", "VMAF_feature_motion2_score", "VMAF_feature_motion3_score"],
  options: defineOptions("float_motion", {
    debug: { type: "bool", default: true, help: "debug mode: enable additional output" },
    motion_force_zero: { type: "bool", default: false, alias: "force_0", featureParam: true, help: "force the motion score to zero" },
    motion_fps_weight: { type: "double", default: 1.0, min: 0, max: 5, alias: "mfw", featureParam: true, help: "fps-aware multiplicative weight" },
    motion_blend_factor: { type: "double", default: 1.0, min: 0, max: 1, alias: "mbf", featureParam: true, help: "blend motion score given an offset" },
    motion_blend_offset: { type: "double", default: 40.0, min: 0, max: 1000, alias: "mbo", featureParam: true, help: "blend motion score from this offset" },
    motion_add_scale1: { type: "bool", default: false, alias: "mdc", featureParam: true, help: "add the scale-1 motion" },
    motion_filter_size: { type: "int", default: 5, min: 0, max: 9, alias: "mfs", featureParam: true, help: "blur filter size" },
    motion_add_uv: { type: "bool", default: false, alias: "mau", featureParam: true, help: "add the chroma motion" },
    motion_max_val: { type: "double", default: MOTION_MAX_VAL, min: 0, max: MOTION_MAX_VAL, alias: "mmxv", featureParam: true, help: "upper clip of the score" },
  }),
};
