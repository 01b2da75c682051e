// motion's and float_motion's catalogue entries (adr/0022-extractor-catalogue.md): facts
// only; the code is loaded on use through `load`.
import { defineOptions, type CatalogueEntry, type OptionDef } from "@vq/core";

/** libvmaf's DEFAULT_MOTION_MAX_VAL: the clip that is also the option's upper bound. */
const DEFAULT_MOTION_MAX_VAL = 10000;

/** The options integer motion and float_motion share, as libvmaf defines them in both. */
const SHARED = {
  motion_force_zero: { type: "bool", default: false, alias: "force_0", featureParam: true, help: "forcing motion score to zero" },
  motion_blend_factor: { type: "double", default: 1.0, min: 0.0, max: 1.0, alias: "mbf", featureParam: true, help: "blend motion score given an offset" },
  motion_blend_offset: { type: "double", default: 40.0, min: 0.0, max: 1000.0, alias: "mbo", featureParam: true, help: "blend motion score starting from this offset" },
  motion_fps_weight: { type: "double", default: 1.0, min: 0.0, max: 5.0, alias: "mfw", featureParam: true, help: "fps-aware multiplicative weight/correction" },
  motion_max_val: {
    type: "double",
    default: DEFAULT_MOTION_MAX_VAL,
    min: 0.0,
    max: DEFAULT_MOTION_MAX_VAL,
    alias: "mmxv",
    featureParam: true,
    help: "maximum value allowed; larger values will be clipped to this value",
  },
} as const satisfies Record<string, OptionDef>;

const DEBUG = { type: "bool", addsOutputs: true, help: "debug mode: enable additional output" } as const;

/** The options of libvmaf's integer `motion` extractor, with its types, defaults, ranges, flags and aliases. */
export const motionOptions = defineOptions("motion", {
  motion_force_zero: SHARED.motion_force_zero,
  motion_blend_factor: SHARED.motion_blend_factor,
  motion_blend_offset: SHARED.motion_blend_offset,
  motion_fps_weight: SHARED.motion_fps_weight,
  motion_max_val: SHARED.motion_max_val,
  motion_five_frame_window: { type: "bool", default: false, alias: "mffw", featureParam: true, help: "use five-frame temporal window" },
  motion_moving_average: { type: "bool", default: false, alias: "mma", featureParam: true, help: "use moving average for motion scores after first frame" },
  debug: { ...DEBUG, default: false },
});

/** The options of libvmaf's `float_motion` extractor (note: debug defaults to true here). */
export const floatMotionOptions = defineOptions("float_motion", {
  debug: { ...DEBUG, default: true },
  motion_force_zero: SHARED.motion_force_zero,
  motion_fps_weight: SHARED.motion_fps_weight,
  motion_blend_factor: SHARED.motion_blend_factor,
  motion_blend_offset: SHARED.motion_blend_offset,
  motion_add_scale1: { type: "bool", default: false, alias: "mdc", featureParam: true, help: "add motion score from scale1" },
  motion_filter_size: { type: "int", default: 5, min: 0, max: 9, alias: "mfs", featureParam: true, help: "filtering size" },
  motion_add_uv: { type: "bool", default: false, alias: "mau", featureParam: true, help: "include U and V terms" },
  motion_max_val: SHARED.motion_max_val,
});

/** integer motion's provided feature names, before aliasing and option suffixes. */
export const MOTION_FEATURES = {
  sad: "VMAF_integer_feature_motion_sad_score",
  motion: "VMAF_integer_feature_motion_score",
  motion2: "VMAF_integer_feature_motion2_score",
  motion3: "VMAF_integer_feature_motion3_score",
} as const;

/** float_motion's provided feature names, before aliasing and option suffixes. */
export const FLOAT_MOTION_FEATURES = {
  motion: "VMAF_feature_motion_score",
  motion2: "VMAF_feature_motion2_score",
  motion3: "VMAF_feature_motion3_score",
} as const;

export const motionEntry: CatalogueEntry<typeof motionOptions.defs> = {
  name: "motion",
  options: motionOptions,
  provides: Object.values(MOTION_FEATURES),
  // libvmaf's alias table (feature/alias.c); the sad score has no alias
  aliases: { [MOTION_FEATURES.motion]: "integer_motion", [MOTION_FEATURES.motion2]: "integer_motion2", [MOTION_FEATURES.motion3]: "integer_motion3" },
  temporal: true, // compares with earlier reference frames; motion2/motion3 are written at flush
  lumaOnly: () => true,
  load: { cpu: () => import("./index.ts").then((m) => m.motionFeature), gpu: () => import("./index.ts").then((m) => m.motionFeature) },
};

export const floatMotionEntry: CatalogueEntry<typeof floatMotionOptions.defs> = {
  name: "float_motion",
  options: floatMotionOptions,
  provides: Object.values(FLOAT_MOTION_FEATURES),
  aliases: { [FLOAT_MOTION_FEATURES.motion]: "motion", [FLOAT_MOTION_FEATURES.motion2]: "motion2", [FLOAT_MOTION_FEATURES.motion3]: "motion3" },
  temporal: true, // each frame's motion2/motion3 is written once the next frame is seen, the last at flush
  lumaOnly: (o) => !o.motion_add_uv,
  load: { cpu: () => import("./index.ts").then((m) => m.floatMotionFeature) },
};
