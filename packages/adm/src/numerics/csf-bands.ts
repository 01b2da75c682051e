import { filterRegion } from "./band-region.ts";
import type { MaskerSums } from "./contrast-masking.ts";
import type { Orientations } from "./decouple.ts";
import { absInt32 } from "./int64.ts";

/**
 * CSF weighting of the masker bands: csf = weight * band (fixed point) and, for the 3x3
 * masking filter, flt = |csf| / 30 and the centre term |csf| / 15 (Q17/Q12 or Q32
 * reciprocals, libvmaf's rounding quirks), summed over the orientations as the threshold
 * uses them.
 */

const SCALE0_SHIFT = [15, 15, 17];
// libvmaf rounds the diagonal band with 65535, not 65536.
const SCALE0_ROUND = [16384, 16384, 65535];
const ONE_BY_30_Q17 = 4369;

/** Scale 0's CSF value: (int16)((weight * s + round) >> shift), the product an int32 (uint16 weight times int16). */
function csf16(s: number, weight: number, shift: number, round: number): number {
  return (((Math.imul(weight, s) + round) >> shift) << 16) >> 16; // `>>` wraps the rounded sum to int32 as C does
}

/** |csf| / 30 in Q17 with libvmaf's rounding, stored as int16 (wraps past 32767). */
function flt16(csf: number): number {
  return (((ONE_BY_30_Q17 * Math.abs(csf) + 2048) >> 12) << 16) >> 16;
}

const ONE_BY_15_Q12 = 8738;

/** int16 cast of |csf| / 15 in Q12, libvmaf's scale-0 centre term. */
function centre16(csf: number): number {
  return (((ONE_BY_15_Q12 * Math.abs(csf) + 2048) >> 12) << 16) >> 16;
}

/**
 * Scale 0: the masker's CSF values (int16, weights uint16 Q21 h/v, Q23 d) turned straight
 * into the masking threshold's per-coefficient sums over h, v, d (see MaskerSums).
 */
export function csfMaskerScale0(src: Orientations<Int16Array>, weights: readonly number[], w: number, h: number, stride: number, out: MaskerSums): void {
  const { left, top, right, bottom } = filterRegion(w, h);
  // one call per row: the engine optimises a function called often sooner than one long loop
  for (let i = top; i < bottom; i++) csfMaskerRow16(src, weights, i * stride + left, i * stride + right, out);
}

function csfMaskerRow16(src: Orientations<Int16Array>, weights: readonly number[], start: number, end: number, out: MaskerSums): void {
  const { h: sh, v: sv, d: sd } = src;
  const [wh, wv, wd] = weights as [number, number, number];
  const { flt, centre } = out;
  for (let x = start; x < end; x++) {
    const ch = csf16(sh[x]!, wh, SCALE0_SHIFT[0]!, SCALE0_ROUND[0]!);
    const cv = csf16(sv[x]!, wv, SCALE0_SHIFT[1]!, SCALE0_ROUND[1]!);
    const cd = csf16(sd[x]!, wd, SCALE0_SHIFT[2]!, SCALE0_ROUND[2]!);
    flt[x] = flt16(ch) + flt16(cv) + flt16(cd);
    centre[x] = centre16(ch) + centre16(cv) + centre16(cd);
  }
}

const ONE_BY_30_Q32 = 143165577;
/** (1u << 31) stored in an int32_t: libvmaf adds -2^31, not +2^31, before the >> 32. */
export const Q32_ROUND = -2147483648;
const TWO_M16 = 2 ** -16;
const TWO_M12 = 2 ** -12;
const TWO_M28 = 2 ** -28;
const TWO_M32 = 2 ** -32;

/** Bounds below which the Q32 products stay exact doubles after adding their rounding terms. */
const WEIGHT_PRODUCT_LIMIT = 2 ** 53 - 2 ** 28;
const MAGNITUDE_PRODUCT_LIMIT = 2 ** 53 - 2 ** 31;

/**
 * (int32)((weight * v + 2^27) >> 28) for a uint32 Q32 weight and an int32 v, exactly.
 * The int64 product reaches 2^63: a double holds it while it stays below the limit (a
 * product past it is rounded, but never back below it); beyond, the weight is split into
 * 16-bit halves. Small enough for the engine to inline into the loops.
 */
export function weightQ32(v: number, weight: number, weightHi: number, weightLo: number): number {
  const p = v * weight;
  if (p < WEIGHT_PRODUCT_LIMIT && p > -WEIGHT_PRODUCT_LIMIT) return Math.floor((p + 134217728) * TWO_M28) | 0;
  return weightQ32Split(v, weightHi, weightLo);
}

function weightQ32Split(v: number, weightHi: number, weightLo: number): number {
  // v*w + 2^27 = (v*wHi + q) * 2^16 + r, with q = floor((v*wLo + 2^27) / 2^16), 0 <= r < 2^16
  const q = Math.floor((v * weightLo + 134217728) * TWO_M16);
  return Math.floor((v * weightHi + q) * TWO_M12) | 0;
}

/** (int32)((c * |v| - 2^31) >> 32) for c < 2^29 (1/15 or 1/30 in Q32), exactly (split past 2^53), the same way. */
export function scaledMagnitudeQ32(v: number, c: number): number {
  const p = c * Math.abs(v);
  if (p < MAGNITUDE_PRODUCT_LIMIT && v !== -2147483648) return Math.floor((p + Q32_ROUND) * TWO_M32) | 0;
  return scaledMagnitudeSplit(v, c);
}

function scaledMagnitudeSplit(v: number, c: number): number {
  const m = absInt32(v); // INT_MIN stays negative, as abs() leaves it in C
  const mHi = Math.floor(m * TWO_M16);
  const mLo = m - mHi * 65536;
  const q = Math.floor((c * mLo + Q32_ROUND) * TWO_M16);
  return Math.floor((c * mHi + q) * TWO_M16) | 0;
}

const ONE_BY_15_Q32 = 286331153;

/**
 * Scales 1..3: the CSF-weighted int32 bands (uint32 Q32 weights), which the masking also
 * takes as its coefficients under test, and the threshold's per-coefficient sums over
 * h, v, d (see MaskerSums; |csf| / 30 and / 15 in Q32, each below 2^28 in magnitude).
 */
export function csfMaskerInt32(src: Orientations<Int32Array>, weights: readonly number[], w: number, h: number, stride: number, csf: Orientations<Int32Array>, out: MaskerSums): void {
  const { left, top, right, bottom } = filterRegion(w, h);
  const { h: sh, v: sv, d: sd } = src;
  const { h: ch, v: cv, d: cd } = csf;
  const { flt, centre } = out;
  // Weights and reciprocals read from a Float64Array: JavaScriptCore then multiplies in
  // doubles from the start; with int32-typed factors it first tries int32 products, which
  // overflow here (twice the time of this loop, measured).
  const doubles = Float64Array.of(weights[0]!, weights[1]!, weights[2]!, ONE_BY_30_Q32, ONE_BY_15_Q32);
  const wh = doubles[0]!;
  const wv = doubles[1]!;
  const wd = doubles[2]!;
  const hHi = Math.floor(wh * TWO_M16);
  const hLo = wh - hHi * 65536;
  const vHi = Math.floor(wv * TWO_M16);
  const vLo = wv - vHi * 65536;
  const dHi = Math.floor(wd * TWO_M16);
  const dLo = wd - dHi * 65536;
  const c30 = doubles[3]!;
  const c15 = doubles[4]!;
  for (let i = top; i < bottom; i++) {
    for (let x = i * stride + left, end = i * stride + right; x < end; x++) {
      const vh = weightQ32(sh[x]!, wh, hHi, hLo);
      const vv = weightQ32(sv[x]!, wv, vHi, vLo);
      const vd = weightQ32(sd[x]!, wd, dHi, dLo);
      ch[x] = vh;
      cv[x] = vv;
      cd[x] = vd;
      flt[x] = scaledMagnitudeQ32(vh, c30) + scaledMagnitudeQ32(vv, c30) + scaledMagnitudeQ32(vd, c30);
      centre[x] = scaledMagnitudeQ32(vh, c15) + scaledMagnitudeQ32(vv, c15) + scaledMagnitudeQ32(vd, c15);
    }
  }
}
