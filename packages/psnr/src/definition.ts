import { VqError, type ExtractorDefinition, type OptionValues, type PictureFormat } from "@vq/core";
import { PSNR_NAMES, psnrEntry, psnrOptions } from "./catalogue.ts";

export { PSNR_NAMES, psnrOptions } from "./catalogue.ts";

export type PsnrOptions = OptionValues<typeof psnrOptions.defs>;

export const MSE_NAMES = ["mse_y", "mse_cb", "mse_cr"] as const;
export const APSNR_NAMES = ["apsnr_y", "apsnr_cb", "apsnr_cr"] as const;

/** Planes scored: chroma only when enabled and present (libvmaf turns it off for 4:0:0). */
export function scoredPlanes(options: PsnrOptions, format: PictureFormat): number {
  return options.enable_chroma && format.pixelFormat !== "400" ? 3 : 1;
}

export const psnrDefinition: ExtractorDefinition<typeof psnrOptions.defs> = {
  name: psnrEntry.name,
  options: psnrOptions,
  temporal: psnrEntry.temporal,
  // APSNR sums every frame's squared error (per-frame psnr needs no earlier frame)
  warmUpFrames: (options) => (options.enable_apsnr ? Infinity : 0),
  providedFeatures(options, format) {
    const n = format ? scoredPlanes(options, format) : options.enable_chroma ? 3 : 1;
    const names: string[] = [];
    for (let p = 0; p < n; p++) {
      names.push(PSNR_NAMES[p]!);
      if (options.enable_mse) names.push(MSE_NAMES[p]!);
    }
    return names;
  },
  checkFormat(_options, format) {
    if (format.bitDepth !== 8 && format.bitDepth !== 10 && format.bitDepth !== 12 && format.bitDepth !== 16) {
      throw new VqError(`feature psnr: ${format.bitDepth}-bit input is not supported (libvmaf's psnr takes 8, 10, 12 or 16 bits)`);
    }
  },
};
