import { VqError, type ExtractorDefinition, type OptionValues, type PictureFormat } from "@vq/core";
import { PSNR_HVS_NAME, PSNR_HVS_PLANE_NAMES, psnrHvsEntry, psnrHvsOptions } from "./catalogue.ts";

export { PSNR_HVS_NAME, PSNR_HVS_PLANE_NAMES, psnrHvsOptions } from "./catalogue.ts";

export type PsnrHvsOptions = OptionValues<typeof psnrHvsOptions.defs>;

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
  name: psnrHvsEntry.name,
  options: psnrHvsOptions,
  temporal: psnrHvsEntry.temporal,
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
