import { aliasOf, VqError, type ExtractorDefinition, type OptionValues, type PictureFormat } from "@vq/core";
import { MOTION_FEATURES, motionEntry, motionOptions } from "./catalogue.ts";

export { MOTION_FEATURES, motionOptions } from "./catalogue.ts";

const alias = (name: string) => aliasOf(motionEntry, name);

export type MotionOptions = OptionValues<typeof motionOptions.defs>;

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
  name: motionEntry.name,
  options: motionOptions,
  temporal: motionEntry.temporal,
  warmUpFrames(options) {
    // frame i's SAD score compares it with frame i-d; motion2 of frame N takes the SAD
    // scores of frames N-(d-1) and N+1, so frame N-(d-1)-d is the first needed; motion3's
    // moving average takes motion2 of frame N-1 too, one frame more (Motion2And3Writer).
    const d = motionFrameDistance(options);
    return 2 * d - 1 + (options.motion_moving_average ? 1 : 0);
  },
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
