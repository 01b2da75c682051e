import { defineOptions } from "@vq/core";
import type { ModelExtractor } from "./model-extractor.ts";

// Extractors without feature parameters: their outputs never carry option suffixes.

export const psnr: ModelExtractor = {
  name: "psnr",
  provides: ["psnr_y", "psnr_cb", "psnr_cr"],
  options: defineOptions("psnr", {
    enable_chroma: { type: "bool", default: true, help: "enable calculation for chroma channels" },
    enable_mse: { type: "bool", default: false, help: "enable MSE calculation" },
    enable_apsnr: { type: "bool", default: false, help: "enable APSNR calculation" },
    reduced_hbd_peak: { type: "bool", default: false, help: "reduce hbd peak value to align with scaled 8-bit content" },
    min_sse: { type: "double", default: 0, min: 0, max: Number.MAX_VALUE, help: "constrain the minimum possible sse" },
  }),
};

export const floatSsim: ModelExtractor = {
  name: "float_ssim",
  provides: ["float_ssim"],
  options: defineOptions("float_ssim", {
    enable_lcs: { type: "bool", default: false, help: "write luminance, contrast and structure" },
    enable_db: { type: "bool", default: false, help: "write the score in dB" },
    clip_db: { type: "bool", default: false, help: "clip the dB score" },
    scale: { type: "int", default: 0, min: 0, max: 10, help: "decimation scale (0 = automatic)" },
  }),
};

export const floatMsSsim: ModelExtractor = {
  name: "float_ms_ssim",
  provides: ["float_ms_ssim"],
  options: defineOptions("float_ms_ssim", {
    enable_lcs: { type: "bool", default: false, help: "write luminance, contrast and structure per scale" },
    enable_db: { type: "bool", default: false, help: "write the score in dB" },
    clip_db: { type: "bool", default: false, help: "clip the dB score" },
  }),
};

const none = (name: string) => defineOptions(name, {});

export const ciede: ModelExtractor = { name: "ciede", provides: ["ciede2000"], options: none("ciede") };
export const floatPsnr: ModelExtractor = { name: "float_psnr", provides: ["float_psnr"], options: none("float_psnr") };
export const floatAnsnr: ModelExtractor = { name: "float_ansnr", provides: ["float_ansnr"], options: none("float_ansnr") };
export const floatMoment: ModelExtractor = { name: "float_moment", provides: ["float_moment"], options: none("float_moment") };
