// speed_chroma's and speed_temporal's catalogue entries (adr/0022-extractor-catalogue.md):
// facts only; the code is loaded on use through `load`.
import { defineOptions, FRAME_SCALING_OPTIONS, PRESCALE_METHODS, type CatalogueEntry } from "@vq/core";

/** The frame prescaling methods, as libvmaf names them (float_vif shares them). */
export { PRESCALE_METHODS };

/**
 * The options both SpEED extractors share, as libvmaf's option tables declare them
 * (speed.c): every one is a feature parameter, so non-default values name the outputs.
 */
export const sharedOptions = {
  speed_kernelscale: FRAME_SCALING_OPTIONS.kernelscale,
  speed_prescale: FRAME_SCALING_OPTIONS.prescale,
  speed_prescale_method: { ...FRAME_SCALING_OPTIONS.prescaleMethod, alias: "psm" },
  speed_sigma_nn: { type: "double", default: 0.29, min: 0.1, max: 2.0, alias: "snn", featureParam: true, help: "standard deviation of neural noise" },
  speed_nn_floor: { type: "double", default: 0.0, min: 0.0, max: 1.0, alias: "nnf", featureParam: true, help: "neural noise floor, expressed in percentage of sigma_nn" },
  speed_max_val: {
    type: "double",
    default: 1000.0,
    min: 0.0,
    max: 1000.0,
    alias: "mxv",
    featureParam: true,
    help: "maximum value allowed; larger values will be clipped to this value",
  },
} as const;

export const speedChromaOptions = defineOptions("speed_chroma", {
  ...sharedOptions,
  speed_weight_var_mode: { type: "int", default: 0, min: 0, max: 6, alias: "wvm", featureParam: true, help: "different approaches to perform variance-absed weighting" },
});

export const speedTemporalOptions = defineOptions("speed_temporal", {
  ...sharedOptions,
  speed_use_ref_diff: { type: "bool", default: false, alias: "urd", featureParam: true, help: "debug mode: enable additional output" },
});

/** libvmaf's provided feature names. */
export const SPEED_FEATURES = {
  u: "Speed_chroma_feature_speed_chroma_u_score",
  v: "Speed_chroma_feature_speed_chroma_v_score",
  uv: "Speed_chroma_feature_speed_chroma_uv_score",
  temporal: "Speed_temporal_feature_speed_temporal_score",
} as const;

export const speedChromaEntry: CatalogueEntry<typeof speedChromaOptions.defs> = {
  name: "speed_chroma",
  options: speedChromaOptions,
  provides: [SPEED_FEATURES.u, SPEED_FEATURES.v, SPEED_FEATURES.uv],
  // libvmaf's alias table (feature/alias.c)
  aliases: { [SPEED_FEATURES.u]: "speed_chroma_u", [SPEED_FEATURES.v]: "speed_chroma_v", [SPEED_FEATURES.uv]: "speed_chroma_uv" },
  temporal: false,
  load: { cpu: () => import("./index.ts").then((m) => m.speedChromaFeature), gpu: () => import("./index.ts").then((m) => m.speedChromaFeature) },
};

export const speedTemporalEntry: CatalogueEntry<typeof speedTemporalOptions.defs> = {
  name: "speed_temporal",
  options: speedTemporalOptions,
  provides: [SPEED_FEATURES.temporal],
  aliases: { [SPEED_FEATURES.temporal]: "speed_temporal" },
  temporal: true,
  lumaOnly: () => true,
  load: { cpu: () => import("./index.ts").then((m) => m.speedTemporalFeature), gpu: () => import("./index.ts").then((m) => m.speedTemporalFeature) },
};
