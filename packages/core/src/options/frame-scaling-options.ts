import type { OptionDef } from "./options.ts";

/** vif_scale_frame_s's resampling methods (libvmaf's vif_tools), as float_vif and SpEED name them. */
export const PRESCALE_METHODS = ["nearest", "bilinear", "bicubic", "lanczos4"] as const;

/**
 * The kernel-scale and frame-prescale options float_vif and SpEED both declare (same
 * defaults, ranges, aliases and help in libvmaf); each extractor gives them its own prefix.
 */
export const FRAME_SCALING_OPTIONS = {
  kernelscale: {
    type: "double",
    default: 1.0,
    min: 0.1,
    max: 4.0,
    alias: "ks",
    featureParam: true,
    help: "scaling factor for the gaussian kernel (2.0 means multiplying the standard deviation by 2 and enlarge the kernel size accordingly",
  },
  prescale: {
    type: "double",
    default: 1.0,
    min: 0.1,
    max: 4.0,
    alias: "ps",
    featureParam: true,
    help: "scaling factor for the frame (2.0 means making the image twice as large on each dimension)",
  },
  /** float_vif's alias is `pm`, SpEED's `psm`: each sets its own. */
  prescaleMethod: {
    type: "string",
    default: "nearest",
    choices: PRESCALE_METHODS,
    featureParam: true,
    help: "scaling method for the frame, supported options: [nearest, bilinear, bicubic, lanczos4]",
  },
} as const satisfies Record<string, OptionDef>;
