import { defineOptions, type OptionDef } from "@vq/core";
import type { ModelExtractor } from "./model-extractor.ts";

/** The options speed_chroma and speed_temporal share (libvmaf's speed.c defaults). */
const SHARED = {
  speed_kernelscale: { type: "double", default: 1.0, min: 0.1, max: 4, alias: "ks", featureParam: true, help: "scale of the gaussian kernel" },
  speed_prescale: { type: "double", default: 1.0, min: 0.1, max: 4, alias: "ps", featureParam: true, help: "scale of the frame" },
  speed_prescale_method: { type: "string", default: "nearest", choices: ["nearest", "bilinear", "bicubic", "lanczos4"], alias: "psm", featureParam: true, help: "scaling method: nearest, bilinear, bicubic, lanczos4" },
  speed_sigma_nn: { type: "double", default: 0.29, min: 0.1, max: 2, alias: "snn", featureParam: true, help: "standard deviation of neural noise" },
  speed_nn_floor: { type: "double", default: 0.0, min: 0, max: 1, alias: "nnf", featureParam: true, help: "neural noise floor, in percent of sigma_nn" },
  speed_max_val: { type: "double", default: 1000.0, min: 0, max: 1000, alias: "mxv", featureParam: true, help: "upper clip of the score" },
} satisfies Record<string, OptionDef>;

export const speedChroma: ModelExtractor = {
  name: "speed_chroma",
  provides: [
    "Speed_chroma_feature_speed_chroma_u_score",
    "Speed_chroma_feature_speed_chroma_v_score",
    "Speed_chroma_feature_speed_chroma_uv_score",
  ],
  options: defineOptions("speed_chroma", {
    ...SHARED,
    speed_weight_var_mode: { type: "int", default: 0, min: 0, max: 6, alias: "wvm", featureParam: true, help: "variance-based weighting" },
  }),
};

export const speedTemporal: ModelExtractor = {
  name: "speed_temporal",
  provides: ["Speed_temporal_feature_speed_temporal_score"],
  options: defineOptions("speed_temporal", {
    ...SHARED,
    speed_use_ref_diff: { type: "bool", default: false, alias: "urd", featureParam: true, help: "use the reference's frame difference" },
  }),
};
