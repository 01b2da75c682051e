import { aliasOf, chromaSize, VqError, type ExtractorDefinition, type OptionValues, type PictureFormat } from "@vq/core";
import { FLOAT_MOTION_FEATURES, floatMotionEntry, floatMotionOptions } from "./catalogue.ts";

export { FLOAT_MOTION_FEATURES, floatMotionOptions } from "./catalogue.ts";

const alias = (name: string) => aliasOf(floatMotionEntry, name);

/** libvmaf's VIF_BILINEAR_MAX_WIDTH: motion_add_scale1 refuses wider half-scale pictures. */
const BILINEAR_MAX_WIDTH = 7680;

export type FloatMotionOptions = OptionValues<typeof floatMotionOptions.defs>;

export type FloatMotionFeatureNames = { readonly [K in keyof typeof FLOAT_MOTION_FEATURES]: string };

/** Output keys: aliased by the writer with default feature params, `alias + _suffixes` otherwise. */
export function floatMotionFeatureNames(options: FloatMotionOptions): FloatMotionFeatureNames {
  const name = (raw: string) => alias(floatMotionOptions.featureName(raw, options, alias));
  return { motion: name(FLOAT_MOTION_FEATURES.motion), motion2: name(FLOAT_MOTION_FEATURES.motion2), motion3: name(FLOAT_MOTION_FEATURES.motion3) };
}

export const floatMotionDefinition: ExtractorDefinition<typeof floatMotionOptions.defs> = {
  name: floatMotionEntry.name,
  options: floatMotionOptions,
  temporal: floatMotionEntry.temporal,
  // frame N's motion2 is the smaller of its score (against frame N-1) and frame N+1's
  warmUpFrames: (options) => (options.motion_force_zero ? 0 : 1),
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
