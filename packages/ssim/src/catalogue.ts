// float_ssim's and float_ms_ssim's catalogue entries (adr/0022-extractor-catalogue.md):
// facts only; the code is loaded on use through `load`.
import { defineOptions, type CatalogueEntry } from "@vq/core";

/** The options float_ssim and float_ms_ssim share; none is a feature parameter, so names carry no suffix. */
const SHARED = {
  enable_lcs: { type: "bool", default: false, help: "enable luminance, contrast and structure intermediate output" },
  clip_db: { type: "bool", default: false, help: "clip dB scores" },
} as const;

/** The options of libvmaf's `float_ssim` (float_ssim.c). */
export const floatSsimOptions = defineOptions("float_ssim", {
  enable_lcs: SHARED.enable_lcs,
  enable_db: { type: "bool", default: false, help: "write SSIM values as dB" },
  clip_db: SHARED.clip_db,
  scale: { type: "int", default: 0, min: 0, max: 10, help: "decimation scale factor (0=auto, 1=no downscaling, 2-10=explicit)" },
});

/** The options of libvmaf's `float_ms_ssim` (float_ms_ssim.c). */
export const floatMsSsimOptions = defineOptions("float_ms_ssim", {
  // the per-scale outputs only add keys (the golden debug run's float_ms_ssim equals the plain run's)
  enable_lcs: { ...SHARED.enable_lcs, addsOutputs: true },
  enable_db: { type: "bool", default: false, help: "write MS-SSIM values as dB" },
  clip_db: SHARED.clip_db,
});

export const floatSsimEntry: CatalogueEntry<typeof floatSsimOptions.defs> = {
  name: "float_ssim",
  options: floatSsimOptions,
  provides: ["float_ssim"],
  temporal: false,
  lumaOnly: () => true,
  load: { cpu: () => import("./index.ts").then((m) => m.ssimFeature), gpu: () => import("./index.ts").then((m) => m.ssimFeature) },
};

export const floatMsSsimEntry: CatalogueEntry<typeof floatMsSsimOptions.defs> = {
  name: "float_ms_ssim",
  options: floatMsSsimOptions,
  provides: ["float_ms_ssim"],
  temporal: false,
  lumaOnly: () => true,
  load: { cpu: () => import("./index.ts").then((m) => m.msSsimFeature), gpu: () => import("./index.ts").then((m) => m.msSsimFeature) },
};
