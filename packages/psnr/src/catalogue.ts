// psnr's, float_psnr's, float_ansnr's and float_moment's catalogue entries
// (adr/0022-extractor-catalogue.md): facts only; the code is loaded on use through `load`.
import { defineOptions, type CatalogueEntry } from "@vq/core";

export const psnrOptions = defineOptions("psnr", {
  enable_chroma: { type: "bool", default: true, help: "enable calculation for chroma channels" },
  enable_mse: { type: "bool", default: false, addsOutputs: true, help: "enable MSE calculation" },
  enable_apsnr: { type: "bool", default: false, help: "enable APSNR calculation" },
  reduced_hbd_peak: { type: "bool", default: false, help: "reduce hbd peak value to align with scaled 8-bit content" },
  min_sse: { type: "double", default: 0, min: 0, max: Number.MAX_VALUE, help: "constrain the minimum possible sse" },
});

// libvmaf's legacy float picture statistics have no options.
export const floatPsnrOptions = defineOptions("float_psnr", {});
export const floatAnsnrOptions = defineOptions("float_ansnr", {});
export const floatMomentOptions = defineOptions("float_moment", {});

export const PSNR_NAMES = ["psnr_y", "psnr_cb", "psnr_cr"] as const;
export const FLOAT_PSNR_NAME = "float_psnr";
export const FLOAT_ANSNR_NAMES = ["float_ansnr", "float_anpsnr"] as const;
export const FLOAT_MOMENT_NAMES = ["float_moment_ref1st", "float_moment_dis1st", "float_moment_ref2nd", "float_moment_dis2nd"] as const;

const load = <K extends "psnrFeature" | "floatPsnrFeature" | "floatAnsnrFeature" | "floatMomentFeature">(k: K) => () => import("./index.ts").then((m) => m[k]);

export const psnrEntry: CatalogueEntry<typeof psnrOptions.defs> = {
  name: "psnr",
  options: psnrOptions,
  provides: PSNR_NAMES,
  temporal: true, // APSNR accumulates over the run and is written at flush
  lumaOnly: (o) => !o.enable_chroma,
  load: { cpu: load("psnrFeature"), gpu: load("psnrFeature") },
};

/** The legacy float statistics: no options, luma only, CPU only. */
function floatEntry<K extends "floatPsnrFeature" | "floatAnsnrFeature" | "floatMomentFeature">(name: string, options: CatalogueEntry["options"], provides: readonly string[], feature: K): CatalogueEntry<Record<string, never>> {
  return { name, options, provides, temporal: false, lumaOnly: () => true, load: { cpu: load(feature) } };
}

export const floatPsnrEntry = floatEntry("float_psnr", floatPsnrOptions, [FLOAT_PSNR_NAME], "floatPsnrFeature");
export const floatAnsnrEntry = floatEntry("float_ansnr", floatAnsnrOptions, FLOAT_ANSNR_NAMES, "floatAnsnrFeature");
export const floatMomentEntry = floatEntry("float_moment", floatMomentOptions, FLOAT_MOMENT_NAMES, "floatMomentFeature");
