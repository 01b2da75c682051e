import { VqError, type ExtractorDefinition, type OptionValues, type PictureFormat } from "@vq/core";
import { FLOAT_ANSNR_NAMES, FLOAT_MOMENT_NAMES, FLOAT_PSNR_NAME, floatAnsnrOptions, floatMomentOptions, floatPsnrOptions } from "./catalogue.ts";

export { FLOAT_ANSNR_NAMES, FLOAT_MOMENT_NAMES, FLOAT_PSNR_NAME, floatAnsnrOptions, floatMomentOptions, floatPsnrOptions } from "./catalogue.ts";

/*
 * libvmaf's legacy float picture statistics: float_psnr, float_ansnr (+ float_anpsnr) and
 * float_moment. None of them has options; all look at the luma plane only.
 */

export type FloatPsnrOptions = OptionValues<typeof floatPsnrOptions.defs>;
export type FloatAnsnrOptions = OptionValues<typeof floatAnsnrOptions.defs>;
export type FloatMomentOptions = OptionValues<typeof floatMomentOptions.defs>;

/**
 * Peak and PSNR cap per bit depth, as float_psnr's and float_ansnr's init set them: the
 * peak is 2^bpc − 1 scaled to the 8-bit range (picture_copy divides the samples likewise).
 */
const PEAKS: Readonly<Record<number, { peak: number; psnrMax: number }>> = {
  8: { peak: 255.0, psnrMax: 60.0 },
  10: { peak: 255.75, psnrMax: 72.0 },
  12: { peak: 255.9375, psnrMax: 84.0 },
  16: { peak: 255.99609375, psnrMax: 108.0 },
};

export function floatPeak(bitDepth: number): { peak: number; psnrMax: number } {
  const p = PEAKS[bitDepth];
  if (!p) throw new VqError(`float psnr peak: ${bitDepth}-bit input is not supported (8, 10, 12 or 16 bits)`);
  return p;
}

/** picture_copy knows 8, 10, 12 and 16 bits (libvmaf's psnr/ansnr init fails on others; moment would read 16-bit words as bytes). */
function checkBitDepth(name: string, format: PictureFormat): void {
  if (!(format.bitDepth in PEAKS)) {
    throw new VqError(`feature ${name}: ${format.bitDepth}-bit input is not supported (8, 10, 12 or 16 bits)`);
  }
}

export const floatPsnrDefinition: ExtractorDefinition<typeof floatPsnrOptions.defs> = {
  name: "float_psnr",
  options: floatPsnrOptions,
  temporal: false,
  providedFeatures: () => [FLOAT_PSNR_NAME],
  checkFormat: (_options, format) => checkBitDepth("float_psnr", format),
};

/** float_ansnr's 5×5 filter mirrors at most 2 samples past an edge: smaller pictures would read outside the plane. */
export const ANSNR_MIN_SIZE = 3;

export const floatAnsnrDefinition: ExtractorDefinition<typeof floatAnsnrOptions.defs> = {
  name: "float_ansnr",
  options: floatAnsnrOptions,
  temporal: false,
  providedFeatures: () => [...FLOAT_ANSNR_NAMES],
  checkFormat(_options, format) {
    checkBitDepth("float_ansnr", format);
    if (format.width < ANSNR_MIN_SIZE || format.height < ANSNR_MIN_SIZE) {
      throw new VqError(`feature float_ansnr: a ${format.width}x${format.height} picture is too small (its 5x5 filter needs at least ${ANSNR_MIN_SIZE}x${ANSNR_MIN_SIZE} luma samples)`);
    }
  },
};

export const floatMomentDefinition: ExtractorDefinition<typeof floatMomentOptions.defs> = {
  name: "float_moment",
  options: floatMomentOptions,
  temporal: false,
  providedFeatures: () => [...FLOAT_MOMENT_NAMES],
  checkFormat: (_options, format) => checkBitDepth("float_moment", format),
};
