import { VqError, type ExtractorDefinition, type OptionValues, type PictureFormat } from "@vq/core";
import { CONVERTED_BIT_DEPTHS } from "./numerics/luma-float.ts";
import { decimatedSize } from "./numerics/decimation-geometry.ts";
import { WINDOW } from "./numerics/ssim-constants.ts";
import { floatSsimEntry, floatSsimOptions } from "./catalogue.ts";

export { floatSsimOptions } from "./catalogue.ts";

export type FloatSsimOptions = OptionValues<typeof floatSsimOptions.defs>;

export const FLOAT_SSIM_NAMES = { ssim: "float_ssim", l: "float_ssim_l", c: "float_ssim_c", s: "float_ssim_s" } as const;

/**
 * The downscaling factor: the `scale` option, or libvmaf's automatic rule
 * max(1, round(min(w, h) / 256)) (halves round up), so SSIM looks at roughly 256-line pictures.
 */
export function ssimScale(options: FloatSsimOptions, format: Pick<PictureFormat, "width" | "height">): number {
  if (options.scale > 0) return options.scale;
  return Math.max(1, Math.floor(Math.min(format.width, format.height) / 256 + 0.5));
}

/** The picture SSIM is computed on: the luma, downscaled when the factor is above 1. */
export function ssimPictureSize(options: FloatSsimOptions, format: Pick<PictureFormat, "width" | "height">): { width: number; height: number; scale: number } {
  const scale = ssimScale(options, format);
  if (scale === 1) return { width: format.width, height: format.height, scale };
  return { width: decimatedSize(format.width, scale), height: decimatedSize(format.height, scale), scale };
}

export function checkBitDepth(extractor: string, format: PictureFormat): void {
  if (!(CONVERTED_BIT_DEPTHS as readonly number[]).includes(format.bitDepth)) {
    throw new VqError(`feature ${extractor}: ${format.bitDepth}-bit input is not supported (8, 10, 12 or 16 bits)`);
  }
}

export const floatSsimDefinition: ExtractorDefinition<typeof floatSsimOptions.defs> = {
  name: floatSsimEntry.name,
  options: floatSsimOptions,
  temporal: floatSsimEntry.temporal,
  providedFeatures(options) {
    const n = FLOAT_SSIM_NAMES;
    return options.enable_lcs ? [n.ssim, n.l, n.c, n.s] : [n.ssim];
  },
  checkFormat(options, format) {
    checkBitDepth("float_ssim", format);
    const size = ssimPictureSize(options, format);
    // libvmaf divides by an empty (or negative) window count here and writes garbage
    if (size.width < WINDOW || size.height < WINDOW) {
      const how = size.scale > 1 ? ` after downscaling by ${size.scale}` : "";
      throw new VqError(`feature float_ssim: a ${format.width}x${format.height} picture is ${size.width}x${size.height}${how}, smaller than the ${WINDOW}x${WINDOW} SSIM window`);
    }
  },
};
