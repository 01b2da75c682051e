import type { KernelSpec } from "@vq/gpu-core";
import frameWgsl from "../../../../shaders/common/frame.wgsl" with { type: "text" };
import boxWgsl from "../../../../shaders/ssim/box-decimate.wgsl" with { type: "text" };
import decimateIoWgsl from "../../../../shaders/ssim/decimate-io.wgsl" with { type: "text" };
import horizontalWgsl from "../../../../shaders/ssim/horizontal.wgsl" with { type: "text" };
import lumaWgsl from "../../../../shaders/ssim/luma.wgsl" with { type: "text" };
import paramsWgsl from "../../../../shaders/ssim/params.wgsl" with { type: "text" };
import rowSumsWgsl from "../../../../shaders/ssim/row-sums.wgsl" with { type: "text" };
import verticalWgsl from "../../../../shaders/ssim/vertical.wgsl" with { type: "text" };
import waveletWgsl from "../../../../shaders/ssim/wavelet-decimate.wgsl" with { type: "text" };
import workgroupSumsWgsl from "../../../../shaders/ssim/workgroup-sums.wgsl" with { type: "text" };
import { C1, C2, C3, GAUSSIAN_TAPS } from "../numerics/ssim-constants.ts";
import { LPF_9X9 } from "../numerics/wavelet-decimate.ts";

/** An f32 as a WGSL literal: 17 significant digits name the float exactly. */
function f32Literal(x: number): string {
  return `${Math.fround(x).toPrecision(17)}f`;
}

/** The taps and constants of ssim-constants.ts and wavelet-decimate.ts as WGSL, so the GPU uses the CPU's numbers. */
const CONSTANTS = [
  `const GAUSSIAN = array<f32, ${GAUSSIAN_TAPS.length}>(${[...GAUSSIAN_TAPS].map(f32Literal).join(", ")});`,
  `const LPF_9X9 = array<f32, 81>(${[...LPF_9X9].map(f32Literal).join(", ")});`,
  `const C1: f32 = ${f32Literal(C1)};`,
  `const C2: f32 = ${f32Literal(C2)};`,
  `const C3: f32 = ${f32Literal(C3)};`,
].join("\n");

const kernel = (label: string, ...parts: string[]): KernelSpec => ({ label, code: [CONSTANTS, paramsWgsl, ...parts].join("\n") });

export const SSIM_KERNELS = {
  luma: kernel("ssim luma", frameWgsl, lumaWgsl),
  boxDecimate: kernel("ssim box decimate", decimateIoWgsl, boxWgsl),
  waveletDecimate: kernel("ssim wavelet decimate", decimateIoWgsl, waveletWgsl),
  horizontal: kernel("ssim horizontal", horizontalWgsl),
  vertical: kernel("ssim vertical", workgroupSumsWgsl, verticalWgsl),
  rowSums: kernel("ssim row sums", workgroupSumsWgsl, rowSumsWgsl),
} as const;

/** Words of sums per SSIM-map row, and per scale in the results: (hi, lo) of Σ l·c·s, Σ l, Σ c, Σ s. */
export const SUM_WORDS = 8;
