// psnr_hvs's catalogue entry (adr/0022-extractor-catalogue.md): facts only; the code is
// loaded on use through `load`.
import { defineOptions, type CatalogueEntry } from "@vq/core";

/** libvmaf's psnr_hvs has no options. */
export const psnrHvsOptions = defineOptions("psnr_hvs", {});

/** Per-plane scores, then the weighted combination (0.8 Y + 0.1 Cb + 0.1 Cr). */
export const PSNR_HVS_PLANE_NAMES = ["psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr"] as const;
export const PSNR_HVS_NAME = "psnr_hvs";

export const psnrHvsEntry: CatalogueEntry<typeof psnrHvsOptions.defs> = {
  name: "psnr_hvs",
  options: psnrHvsOptions,
  provides: [...PSNR_HVS_PLANE_NAMES, PSNR_HVS_NAME],
  temporal: false,
  load: { cpu: () => import("./index.ts").then((m) => m.psnrHvsFeature), gpu: () => import("./index.ts").then((m) => m.psnrHvsFeature) },
};
