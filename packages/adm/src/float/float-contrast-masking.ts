import { scoreRegion } from "../numerics/band-region.ts";
import type { Orientations } from "../numerics/decouple.ts";
import { floatPower, noiseConstant } from "./float-csf.ts";
import { powf } from "@vq/core/libm";

/**
 * float_adm's contrast masking (adm_cm_s): x = w * band, minus the masking threshold
 * (3x3 sums of |masker| / 30 with the centre as |masker| / 15, summed in float in
 * libvmaf's order), clamped at 0, raised to p and summed in float per row and per
 * scale; the scale's term is sum^(1/p) + the noise floor, over h, v, d.
 */

const f = Math.fround;
const ONE_BY_15 = 0.0666666701; // FLOAT_ONE_BY_15, a double literal in libvmaf

export interface FloatMaskingLayout {
  w: number;
  h: number;
  stride: number;
  noiseWeight: number;
  pNorm: number;
  bypass: boolean;
}

export function floatContrastMasking(
  src: Orientations<Float32Array>,
  masker: Orientations<Float32Array>,
  flt: Orientations<Float32Array>,
  weights: readonly number[],
  layout: FloatMaskingLayout,
): number {
  const { w, h, stride, pNorm, bypass } = layout;
  const { left, top, right, bottom } = scoreRegion(w, h);
  // the coefficients libvmaf visits; edge rows/columns join when the region reaches them
  const rowStart = top <= 0 ? 0 : Math.max(top, 1);
  const rowEnd = bottom > h - 1 ? h : Math.min(bottom, h - 1);
  const colStart = left <= 0 ? 0 : Math.max(left, 1);
  const colEnd = right > w - 1 ? w : Math.min(right, w - 1);
  const pFloat = f(pNorm);
  const srcBands = [src.h, src.v, src.d];
  const maskers = [masker.h, masker.v, masker.d];
  const flts = [flt.h, flt.v, flt.d];
  const accum = [0, 0, 0];
  const inner = [0, 0, 0];
  for (let i = rowStart; i < rowEnd; i++) {
    // row -1 mirrors to 1, row h to h - 1 (and the same for columns)
    const up = (i === 0 ? 1 : i - 1) * stride;
    const mid = i * stride;
    const down = (i === h - 1 ? h - 1 : i + 1) * stride;
    inner[0] = inner[1] = inner[2] = 0;
    for (let j = colStart; j < colEnd; j++) {
      let thr = 0;
      if (!bypass) {
        const jl = j === 0 ? 1 : j - 1;
        const jr = j === w - 1 ? w - 1 : j + 1;
        for (let theta = 0; theta < 3; theta++) {
          const b = flts[theta]!;
          let sum = f(f(f(b[up + jl]! + b[up + j]!) + b[up + jr]!) + b[mid + jl]!);
          sum = f(sum + ONE_BY_15 * Math.abs(maskers[theta]![mid + j]!)); // double, then (float)
          sum = f(f(f(f(f(sum + b[mid + jr]!) + b[down + jl]!) + b[down + j]!) + b[down + jr]!));
          thr = f(thr + sum);
        }
      }
      for (let theta = 0; theta < 3; theta++) {
        let x = f(Math.abs(f(srcBands[theta]![mid + j]! * weights[theta]!)) - thr);
        if (x < 0) x = 0;
        inner[theta] = f(inner[theta]! + floatPower(x, pNorm, pFloat));
      }
    }
    for (let theta = 0; theta < 3; theta++) accum[theta] = f(accum[theta]! + inner[theta]!);
  }
  const noise = noiseConstant((right - left) * (bottom - top), layout.noiseWeight, pNorm);
  let total = 0;
  for (let theta = 0; theta < 3; theta++) {
    const term = f(powf(accum[theta]!, f(1 / pNorm)) + noise);
    total = theta === 0 ? term : f(total + term);
  }
  return total;
}
