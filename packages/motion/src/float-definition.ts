import { chromaSize, defineOptions, VqError, type ExtractorDefinition, type OptionValues, type PictureFormat } from "@vq/core";

/** libvmaf's VIF_BILINEAR_MAX_WIDTH: motion_add_scale1 refuses wider half-scale pictures. */
const BILINEAR_MAX_WIDTH = 7680;

/** The options of libvmaf's `float_motion` extractor (note: debug defaults to true here). */
export const floatMotionOptions = defineOptions("float_motion", {
  debug: { type: "bool", default: true, help: "debug mode: enable additional output" },
  motion_force_zero: { type: "bool", default: false, alias: "force_0", featureParam: true, help: "forcing motion score to zero" },
  motion_fps_weight: { type: "double", default: 1.0, min: 0.0, max: 5.0, alias: "mfw", featureParam: true, help: "fps-aware multiplicative weight/correction" },
  motion_blend_factor: { type: "double", default: 1.0, min: 0.0, max: 1.0, alias: "mbf", featureParam: true, help: "blend motion score given an offset" },
  motion_blend_offset: { type: "double", default: 40.0, min: 0.0, max: 1000.0, alias: "mbo", featureParam: true, help: "blend motion score starting from this offset" },
  motion_add_scale1: { type: "bool", default: false, alias: "mdc", featureParam: true, help: "add motion score from scale1" },
  motion_filter_size: { type: "int", default: 5, min: 0, max: 9, alias: "mfs", featureParam: true, help: "filtering size" },
  motion_add_uv: { type: "bool", default: false, alias: "mau", featureParam: true, help: "include U and V terms" },
  motion_max_val: {
    type: "double",
    default: 10000.0,
    min: 0.0,
    max: 10000.0,
    alias: "mmxv",
    featureParam: true,
    help: "maximum value allowed; larger values will be clipped to this value",
  },
});

export type FloatMotionOptions = OptionValues<typeof floatMotionOptions.defs>;

/** libvmaf's provided feature names, before aliasing and option suffixes. */
export const FLOAT_MOTION_FEATURES = {
  motion: "VMAF_feature_motion_score",
  motion2: "VMAF_feature_motion2_score",
  motion3: "VMAF_feature_motion3_score",
} as const;

const FLOAT_MOTION_ALIASES: Record<string, string> = {
  [FLOAT_MOTION_FEATURES.motion]: "motion",
  [FLOAT_MOTION_FEATURES.motion2]: "motion2",
  [FLOAT_MOTION_FEATURES.motion3]: "motion3",
};

function alias(name: string): string {
  return FLOAT_MOTION_ALIASES[name] ?? name;
}

export type FloatMotionFeatureNames = { readonly [K in keyof typeof FLOAT_MOTION_FEATURES]: string };

/** Output keys: aliased by the writer with default feature params, `alias + _suffixes` otherwise. */
export function floatMotionFeatureNames(options: FloatMotionOptions): FloatMotionFeatureNames {
  const name = (raw: string) => alias(floatMotionOptions.featureName(raw, options, alias));
  return { motion: name(FLOAT_MOTION_FEATURES.motion), motion2: name(FLOAT_MOTION_FEATURES.motion2), motion3: name(FLOAT_MOTION_FEATURES.motion3) };
}

export const floatMotionDefinition: ExtractorDefinition<typeof floatMotionOptions.defs> = {
  name: "float_motion",
  options: floatMotionOptions,
  temporal: true, // each frame's motion2/motion3 is written once the next frame is seen, the last at flush
  providedFeatures(options) {
    const n = floatMotionFeatureNames(options);
    // libvmaf's first writes: motion2 (frame 0), then motion (debug), then motion3
    return options.debug ? [n.motion2, n.motion, n.motion3] : [n.motion2, n.motion3];
  },
  checkFormat(options, format: PictureFormat) {
    // picture_copy converts 8, 10, 12 and 16 bits only (other depths would be read as bytes)
    if (![8, 10, 12, 16].includes(format.bitDepth)) {
      throw new VqError(`feature float_motion: ${format.bitDepth}-bit input is not supported (8, 10, 12 or 16 bits)`);
    }
    if (format.width < 3 || format.height < 3) {
      throw new VqError(`feature float_motion: a ${format.width}x${format.height} picture is too small (the blur needs at least 3x3 luma samples)`);
    }
    if (options.motion_add_uv) {
      if (format.pixelFormat === "400") throw new VqError("feature float_motion: motion_add_uv needs chroma planes, and the input is 4:0:0");
      const c = chromaSize(format);
      if (c.width < 3 || c.height < 3) throw new VqError(`feature float_motion: motion_add_uv: ${c.width}x${c.height} chroma planes are too small for the blur (at least 3x3)`);
    }
    if (options.motion_add_scale1 && Math.trunc(format.width * 0.5 + 0.5) > BILINEAR_MAX_WIDTH) {
      throw new VqError(`feature float_motion: motion_add_scale1 supports pictures up to ${2 * BILINEAR_MAX_WIDTH} samples wide`);
    }
  },
};
