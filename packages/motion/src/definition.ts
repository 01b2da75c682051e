import { defineOptions, VqError, type ExtractorDefinition, type OptionValues, type PictureFormat } from "@vq/core";

/** libvmaf's DEFAULT_MOTION_MAX_VAL: the clip that is also the option's upper bound. */
const DEFAULT_MOTION_MAX_VAL = 10000;

/** The options of libvmaf's integer `motion` extractor, with its types, defaults, ranges, flags and aliases. */
export const motionOptions = defineOptions("motion", {
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
  motion_five_frame_window: { type: "bool", default: false, alias: "mffw", featureParam: true, help: "use five-frame temporal window" },
  motion_moving_average: { type: "bool", default: false, alias: "mma", featureParam: true, help: "use moving average for motion scores after first frame" },
  debug: { type: "bool", default: false, help: "debug mode: enable additional output" },
});

export type MotionOptions = OptionValues<typeof motionOptions.defs>;

/** libvmaf's provided feature names, before aliasing and option suffixes. */
export const MOTION_FEATURES = {
  sad: "VMAF_integer_feature_motion_sad_score",
  motion: "VMAF_integer_feature_motion_score",
  motion2: "VMAF_integer_feature_motion2_score",
  motion3: "VMAF_integer_feature_motion3_score",
} as const;

/** libvmaf's alias table (feature/alias.c) for these names; the sad score has no alias. */
const MOTION_ALIASES: Record<string, string> = {
  [MOTION_FEATURES.motion]: "integer_motion",
  [MOTION_FEATURES.motion2]: "integer_motion2",
  [MOTION_FEATURES.motion3]: "integer_motion3",
};

function alias(name: string): string {
  return MOTION_ALIASES[name] ?? name;
}

export type MotionFeatureNames = { readonly [K in keyof typeof MOTION_FEATURES]: string };

/**
 * The keys libvmaf's output carries: with default feature params the writer aliases the
 * plain name; otherwise the extractor already wrote `alias + _suffixes`, which no alias matches.
 */
export function motionFeatureNames(options: MotionOptions): MotionFeatureNames {
  const name = (raw: string) => alias(motionOptions.featureName(raw, options, alias));
  return {
    sad: name(MOTION_FEATURES.sad),
    motion: name(MOTION_FEATURES.motion),
    motion2: name(MOTION_FEATURES.motion2),
    motion3: name(MOTION_FEATURES.motion3),
  };
}

/** Frames between the two pictures compared: the five-frame window compares frame n with n-2. */
export function motionFrameDistance(options: MotionOptions): 1 | 2 {
  return options.motion_five_frame_window ? 2 : 1;
}

export const motionDefinition: ExtractorDefinition<typeof motionOptions.defs> = {
  name: "motion",
  options: motionOptions,
  temporal: true, // compares with earlier reference frames; motion2/motion3 are written at flush
  providedFeatures(options) {
    const n = motionFeatureNames(options);
    return options.debug ? [n.sad, n.motion, n.motion2, n.motion3] : [n.sad, n.motion2, n.motion3];
  },
  checkFormat(_options, format: PictureFormat) {
    if (format.bitDepth < 8 || format.bitDepth > 16) {
      throw new VqError(`feature motion: ${format.bitDepth}-bit input is not supported (8 to 16 bits)`);
    }
    // The 5-tap mirrored blur reads 2 samples beyond each edge; smaller planes would read outside them.
    if (format.width < 3 || format.height < 3) {
      throw new VqError(`feature motion: a ${format.width}x${format.height} picture is too small (the blur needs at least 3x3 luma samples)`);
    }
  },
};
