import { defineOptions, VqError, type ExtractorDefinition, type OptionValues, type PictureFormat } from "@vq/core";

/** libvmaf's psnr_hvs has no options. */
export const psnrHvsOptions = defineOptions("psnr_hvs", {});

export type PsnrHvsOptions = OptionValues<typeof psnrHvsOptions.defs>;

/** Per-plane scores, then the weighted combination (0.8 Y + 0.1 Cb + 0.1 Cr). */
export const PSNR_HVS_PLANE_NAMES = ["psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr"] as const;
export const PSNR_HVS_NAME = "psnr_hvs";

/** The blocks are 8x8: a plane narrower or shorter has no block, and libvmaf divides 0 by 0. */
export const BLOCK = 8;

/** Plane sizes as libvmaf sees them: chroma sizes are truncated (w >> 1), not rounded up. */
export function libvmafPlaneSizes(format: PictureFormat): { width: number; height: number }[] {
  const ssHor = format.pixelFormat !== "444" ? 1 : 0;
  const ssVer = format.pixelFormat === "420" ? 1 : 0;
  const chroma = { width: format.width >> ssHor, height: format.height >> ssVer };
  return [{ width: format.width, height: format.height }, chroma, chroma];
}

export const psnrHvsDefinition: ExtractorDefinition<typeof psnrHvsOptions.defs> = {
  name: "psnr_hvs",
  options: psnrHvsOptions,
  temporal: false,
  providedFeatures: () => [...PSNR_HVS_PLANE_NAMES, PSNR_HVS_NAME],
  checkFormat(_options, format) {
    if (format.pixelFormat === "400") {
      throw new VqError("feature psnr_hvs: 4:0:0 (grayscale) input has no Cb and Cr planes (psnr_hvs_cb, psnr_hvs_cr and psnr_hvs need them)");
    }
    if (format.bitDepth > 12) {
      throw new VqError(`feature psnr_hvs: ${format.bitDepth}-bit input is not supported (libvmaf's psnr_hvs takes up to 12 bits)`);
    }
    const names = ["luma", "chroma", "chroma"];
    libvmafPlaneSizes(format).forEach((s, p) => {
      if (s.width < BLOCK || s.height < BLOCK) {
        throw new VqError(`feature psnr_hvs: the ${names[p]} plane is ${s.width}x${s.height}, smaller than one 8x8 block`);
      }
    });
  },
};
