import { defineOptions } from "@vq/core";
import type { ModelExtractor } from "./model-extractor.ts";

// libvmaf's cambi.c defaults.
const TOPK_POOLING = 0.6;
const EOTF = "bt1886";

export const cambi: ModelExtractor = {
  name: "cambi",
  provides: ["Cambi_feature_cambi_score"],
  options: defineOptions("cambi", {
    cambi_max_val: { type: "double", default: 1000.0, min: 0, max: 1000, alias: "cmxv", featureParam: true, help: "upper clip of the score" },
    enc_width: { type: "int", default: 0, min: 180, max: 7680, alias: "encw", featureParam: true, help: "encoding width" },
    enc_height: { type: "int", default: 0, min: 150, max: 7680, alias: "ench", featureParam: true, help: "encoding height" },
    enc_bitdepth: { type: "int", default: 0, min: 6, max: 16, alias: "encbd", featureParam: true, help: "encoding bit depth" },
    src_width: { type: "int", default: 0, min: 320, max: 7680, alias: "srcw", featureParam: true, help: "source width (full_ref only)" },
    src_height: { type: "int", default: 0, min: 200, max: 4320, alias: "srch", featureParam: true, help: "source height (full_ref only)" },
    window_size: { type: "int", default: 65, min: 15, max: 127, alias: "ws", featureParam: true, help: "window size" },
    topk: { type: "double", default: TOPK_POOLING, min: 0.0001, max: 1, featureParam: true, help: "ratio of pixels in the spatial pooling" },
    cambi_topk: { type: "double", default: TOPK_POOLING, min: 0.0001, max: 1, alias: "ctpk", featureParam: true, help: "ratio of pixels in the spatial pooling" },
    tvi_threshold: { type: "double", default: 0.019, min: 0.0001, max: 1, alias: "tvit", featureParam: true, help: "visibility threshold" },
    cambi_vis_lum_threshold: { type: "double", default: 0.0, min: 0, max: 300, alias: "vlt", featureParam: true, help: "luminance below which banding is invisible" },
    max_log_contrast: { type: "int", default: 2, min: 0, max: 5, alias: "mlc", featureParam: true, help: "maximum contrast in log luma level" },
    heatmaps_path: { type: "string", default: "", help: "where heatmaps are dumped" },
    full_ref: { type: "bool", default: false, help: "also run on the reference" },
    eotf: { type: "string", default: EOTF, choices: ["bt1886", "pq"], featureParam: true, help: "EOTF of the visibility thresholds" },
    cambi_eotf: { type: "string", default: EOTF, choices: ["bt1886", "pq"], alias: "ceot", featureParam: true, help: "EOTF of the visibility thresholds (wins over eotf)" },
    cambi_high_res_speedup: { type: "int", default: 0, min: 0, max: 2160, alias: "hrs", featureParam: true, help: "downsampling speed-up resolution" },
  }),
};
