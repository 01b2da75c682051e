// cambi's catalogue entry (adr/0022-extractor-catalogue.md): facts only; the code is loaded
// on use through `load`.
import { defineOptions, type CatalogueEntry } from "@vq/core";

/** libvmaf's defaults (cambi.c); `topk` and `eotf` have `cambi_`-prefixed twins that models use. */
export const DEFAULT_TOPK = 0.6;
export const DEFAULT_EOTF = "bt1886";
export const EOTFS = ["bt1886", "pq"] as const;

export const cambiOptions = defineOptions("cambi", {
  cambi_max_val: { type: "double", default: 1000, min: 0, max: 1000, alias: "cmxv", featureParam: true, help: "maximum value allowed; larger values are clipped to it" },
  enc_width: { type: "int", default: 0, min: 180, max: 7680, alias: "encw", featureParam: true, help: "encoding width (0: the input's)" },
  enc_height: { type: "int", default: 0, min: 150, max: 7680, alias: "ench", featureParam: true, help: "encoding height (0: the input's)" },
  enc_bitdepth: { type: "int", default: 0, min: 6, max: 16, alias: "encbd", featureParam: true, help: "encoding bit depth (0: the input's)" },
  src_width: { type: "int", default: 0, min: 320, max: 7680, alias: "srcw", featureParam: true, help: "source width, used with full_ref (0: the input's)" },
  src_height: { type: "int", default: 0, min: 200, max: 4320, alias: "srch", featureParam: true, help: "source height, used with full_ref (0: the input's)" },
  window_size: { type: "int", default: 65, min: 15, max: 127, alias: "ws", featureParam: true, help: "window size at 4K (65 is about 1 degree); scaled to the encoding size" },
  topk: { type: "double", default: DEFAULT_TOPK, min: 0.0001, max: 1, featureParam: true, help: "ratio of pixels in the spatial pooling, 0 < topk <= 1" },
  cambi_topk: { type: "double", default: DEFAULT_TOPK, min: 0.0001, max: 1, alias: "ctpk", featureParam: true, help: "as topk; topk wins when both are set" },
  tvi_threshold: { type: "double", default: 0.019, min: 0.0001, max: 1, alias: "tvit", featureParam: true, help: "visibility threshold: ΔL < tvi_threshold · L_mean" },
  cambi_vis_lum_threshold: { type: "double", default: 0, min: 0, max: 300, alias: "vlt", featureParam: true, help: "luminance (cd/m²) below which banding is taken as invisible" },
  max_log_contrast: { type: "int", default: 2, min: 0, max: 5, alias: "mlc", featureParam: true, help: "maximum contrast in log2 10-bit luma levels" },
  heatmaps_path: { type: "string", default: "", help: "folder where per-scale c-value heatmaps are written (16-bit gray)" },
  full_ref: { type: "bool", default: false, help: "also score the reference: cambi_source and cambi_full_reference" },
  eotf: { type: "string", default: DEFAULT_EOTF, choices: EOTFS, featureParam: true, help: "EOTF of the visibility thresholds: bt1886 or pq" },
  cambi_eotf: { type: "string", default: DEFAULT_EOTF, choices: EOTFS, alias: "ceot", featureParam: true, help: "as eotf; wins over eotf when not the default" },
  cambi_high_res_speedup: { type: "int", default: 0, min: 0, max: 2160, alias: "hrs", featureParam: true, help: "from this resolution on (1080, 1440 or 2160), score at half size after the spatial mask; 0: never" },
});

export const cambiEntry: CatalogueEntry<typeof cambiOptions.defs> = {
  name: "cambi",
  options: cambiOptions,
  provides: ["Cambi_feature_cambi_score"],
  // libvmaf's alias table (feature/alias.c)
  aliases: { Cambi_feature_cambi_score: "cambi" },
  temporal: false,
  lumaOnly: () => true,
  load: { cpu: () => import("./index.ts").then((m) => m.cambiFeature), gpu: () => import("./index.ts").then((m) => m.cambiFeature) },
};
