import { VqError, type ExtractorDefinition, type OptionValues } from "@vq/core";
import { checkBitDepth } from "./float-ssim-definition.ts";
import { WINDOW } from "./numerics/ssim-constants.ts";
import { floatMsSsimEntry, floatMsSsimOptions } from "./catalogue.ts";

export { floatMsSsimOptions } from "./catalogue.ts";

export type FloatMsSsimOptions = OptionValues<typeof floatMsSsimOptions.defs>;

/** Scales of Wang's MS-SSIM: the picture and four halvings. */
export const MS_SSIM_SCALES = 5;

const perScale = (what: string) => Array.from({ length: MS_SSIM_SCALES }, (_, i) => `float_ms_ssim_${what}_scale${i}`);
export const FLOAT_MS_SSIM_NAMES = { msSsim: "float_ms_ssim", l: perScale("l"), c: perScale("c"), s: perScale("s") } as const;

/**
 * libvmaf refuses ("scale below 1x1") a picture whose size, halved (rounding down) four
 * times, falls below the 11-sample window at any scale: at least 176x176.
 */
export const MS_SSIM_MIN_SIZE = WINDOW << (MS_SSIM_SCALES - 1);

export const floatMsSsimDefinition: ExtractorDefinition<typeof floatMsSsimOptions.defs> = {
  name: floatMsSsimEntry.name,
  options: floatMsSsimOptions,
  temporal: floatMsSsimEntry.temporal,
  providedFeatures(options) {
    const n = FLOAT_MS_SSIM_NAMES;
    return options.enable_lcs ? [n.msSsim, ...n.l, ...n.c, ...n.s] : [n.msSsim];
  },
  checkFormat(_options, format) {
    checkBitDepth("float_ms_ssim", format);
    if (format.width < MS_SSIM_MIN_SIZE || format.height < MS_SSIM_MIN_SIZE) {
      throw new VqError(`feature float_ms_ssim: a ${format.width}x${format.height} picture is too small: its 5 scales need at least ${MS_SSIM_MIN_SIZE}x${MS_SSIM_MIN_SIZE}`);
    }
  },
};
