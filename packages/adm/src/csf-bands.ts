import { filterRegion } from "./band-region.ts";
import type { Orientations } from "./decouple.ts";
import { absInt32 } from "./int64.ts";

/**
 * CSF weighting of the masker bands: csf = weight * band (fixed point) and, for the 3x3
 * masking filter, flt = |csf| / 30 (Q17 or Q32 reciprocal, libvmaf's rounding quirks).
 */

const SCALE0_SHIFT = [15, 15, 17];
// libvmaf rounds the diagonal band with 65535, not 65536.
const SCALE0_ROUND = [16384, 16384, 65535];
const ONE_BY_30_Q17 = 4369;

/** Scale 0: int16 in, int16 out. Weights are uint16 (Q21 h/v, Q23 d). */
export function csfScale0(
  src: Orientations<Int16Array>,
  csf: Orientations<Int16Array>,
  flt: Orientations<Int16Array>,
  weights: readonly number[],
  w: number,
  h: number,
  stride: number,
): void {
  const { left, top, right, bottom } = filterRegion(w, h);
  const bands = [
    [src.h, csf.h, flt.h],
    [src.v, csf.v, flt.v],
    [src.d, csf.d, flt.d],
  ] as const;
  for (let theta = 0; theta < 3; theta++) {
    const [s, c, f] = bands[theta]!;
    const weight = weights[theta]!;
    const shift = SCALE0_SHIFT[theta]!;
    const round = SCALE0_ROUND[theta]!;
    for (let i = top; i < bottom; i++) {
      for (let x = i * stride + left, end = i * stride + right; x < end; x++) {
        // weight * s < 2^31; `>>` wraps the rounded sum to int32 as C does
        const value = (((weight * s[x]! + round) >> shift) << 16) >> 16;
        c[x] = value;
        f[x] = (ONE_BY_30_Q17 * Math.abs(value) + 2048) >> 12; // int16 store wraps
      }
    }
  }
}

const ONE_BY_30_Q32 = 143165577;
/** (1u << 31) stored in an int32_t: libvmaf adds -2^31, not +2^31, before the >> 32. */
export const Q32_ROUND = -2147483648;
const TWO_M16 = 2 ** -16;
const TWO_M12 = 2 ** -12;
const TWO_M28 = 2 ** -28;
const TWO_M32 = 2 ** -32;

/** |v| below which weight * v + 2^27 stays below 2^53 (exact in a double). */
export function weightLimit(weight: number): number {
  return Math.floor((2 ** 53 - 2 ** 28) / Math.max(weight, 1));
}

/**
 * (int32)((weight * v + 2^27) >> 28) for a uint32 Q32 weight and an int32 v, exactly:
 * the int64 product reaches 2^63, so v past `limit` splits the weight into 16-bit halves.
 */
export function weightQ32(v: number, weight: number, weightHi: number, weightLo: number, limit: number = weightLimit(weight)): number {
  if (v < limit && v > -limit) return Math.floor((v * weight + 134217728) * TWO_M28) | 0;
  // v*w + 2^27 = (v*wHi + q) * 2^16 + r, with q = floor((v*wLo + 2^27) / 2^16), 0 <= r < 2^16
  const q = Math.floor((v * weightLo + 134217728) * TWO_M16);
  return Math.floor((v * weightHi + q) * TWO_M12) | 0;
}

/** (int32)((c * |v| - 2^31) >> 32) for c < 2^29 (1/15 or 1/30 in Q32), exactly (split past 2^53). */
export function scaledMagnitudeQ32(v: number, c: number): number {
  const m = absInt32(v); // INT_MIN stays negative, as abs() leaves it in C
  const limit = c < 2 ** 28 ? 2 ** 25 : 2 ** 24; // c * m < 2^53
  if (m < limit && m > -limit) return Math.floor((c * m + Q32_ROUND) * TWO_M32) | 0;
  const mHi = Math.floor(m * TWO_M16);
  const mLo = m - mHi * 65536;
  const q = Math.floor((c * mLo + Q32_ROUND) * TWO_M16);
  return Math.floor((c * mHi + q) * TWO_M16) | 0;
}

/** Scales 1..3: int32 in, int32 out. Weights are uint32 Q32. */
export function csfInt32(
  src: Orientations<Int32Array>,
  csf: Orientations<Int32Array>,
  flt: Orientations<Int32Array>,
  weights: readonly number[],
  w: number,
  h: number,
  stride: number,
): void {
  const { left, top, right, bottom } = filterRegion(w, h);
  const bands = [
    [src.h, csf.h, flt.h],
    [src.v, csf.v, flt.v],
    [src.d, csf.d, flt.d],
  ] as const;
  for (let theta = 0; theta < 3; theta++) {
    const [s, c, f] = bands[theta]!;
    const weight = weights[theta]!;
    const weightHi = Math.floor(weight * TWO_M16);
    const weightLo = weight - weightHi * 65536;
    const limit = weightLimit(weight);
    for (let i = top; i < bottom; i++) {
      for (let x = i * stride + left, end = i * stride + right; x < end; x++) {
        const value = weightQ32(s[x]!, weight, weightHi, weightLo, limit);
        c[x] = value;
        f[x] = scaledMagnitudeQ32(value, ONE_BY_30_Q32);
      }
    }
  }
}
