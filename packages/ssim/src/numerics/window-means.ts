import type { SsimMeans } from "./ssim-statistics.ts";

const f32 = Math.fround;

/** The double sums over an SSIM map, as _iqa_ssim accumulates them. */
export interface SsimSums {
  ssim: number;
  l: number;
  c: number;
  s: number;
}

/** _iqa_ssim's result: each sum divided by the window count in double, rounded to float. */
export function windowMeans(sums: SsimSums, windows: number, out: SsimMeans): SsimMeans {
  out.ssim = f32(sums.ssim / windows);
  out.l = f32(sums.l / windows);
  out.c = f32(sums.c / windows);
  out.s = f32(sums.s / windows);
  return out;
}
