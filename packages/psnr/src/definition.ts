import { defineOptions, VqError, type ExtractorDefinition, type OptionValues, type PictureFormat } from "@vq/core";

export const psnrOptions = defineOptions("psnr", {
  enable_chroma: { type: "bool", default: true, help: "enable calculation for chroma channels" },
  enable_mse: { type: "bool", default: false, help: "enable MSE calculation" },
  enable_apsnr: { type: "bool", default: false, help: "enable APSNR calculation" },
  reduced_hbd_peak: { type: "bool", default: false, help: "reduce hbd peak value to align with scaled 8-bit content" },
  min_sse: { type: "double", default: 0, min: 0, max: Number.MAX_VALUE, help: "constrain the minimum possible sse" },
});

export type PsnrOptions = OptionValues<typeof psnrOptions.defs>;

export const PSNR_NAMES = ["psnr_y", "psnr_cb", "psnr_cr"] as const;
export const MSE_NAMES = ["mse_y", "mse_cb", "mse_cr"] as const;
export const APSNR_NAMES = ["apsnr_y", "apsnr_cb", "apsnr_cr"] as const;

/** Planes scored: chroma only when enabled and present (libvmaf turns it off for 4:0:0). */
export function scoredPlanes(options: PsnrOptions, format: PictureFormat): number {
  return options.enable_chroma && format.pixelFormat !== "400" ? 3 : 1;
}

export const psnrDefinition: ExtractorDefinition<typeof psnrOptions.defs> = {
  name: "psnr",
  options: psnrOptions,
  temporal: true, // APSNR accumulates over the run and is written at flush
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
