import type { Samples } from "@vq/core";
import type { DwtIndices } from "./dwt-indices.ts";

/**
 * One level of libvmaf's fixed-point Daubechies-2 DWT. Filters (Q15):
 * lo = {15826, 27411, 7345, -4240}, hi = {-4240, -7345, 27411, -15826}.
 * Bands: a = lo V + lo H, v = lo V + hi H, h = hi V + lo H, d = hi V + hi H.
 */

export interface Bands16 {
  a: Int16Array;
  h: Int16Array;
  v: Int16Array;
  d: Int16Array;
}

export interface Bands32 {
  a: Int32Array;
  h: Int32Array;
  v: Int32Array;
  d: Int32Array;
}

/** Sum of the low-pass taps; the vertical pass subtracts sum * 2^(bits-1) to centre the input on 0. */
const LO_SUM = 46342;

/**
 * libvmaf's x86 kernels (AVX2, AVX-512: the golden data came from the AVX-512 ones)
 * compute the horizontal pass in chunks of outputs that read the taps 2j-1 .. 2j+2
 * without mirroring. When the last output column falls in a chunk ((half - 1) divisible
 * by the chunk's stride), its right taps run past the row into whatever follows it in
 * libvmaf's tmp buffer: the next temporary row (lo -> hi -> lo of the distorted image ->
 * hi of it), or for the last one stale values of an earlier pass. That column's band
 * values, and through the a band the coarser scales, depend on it, so the same buffer
 * layout is kept here (int16 [lo | hi] at scale 0, int32 [lo ref | hi ref | lo dis | hi
 * dis] at scales 1..3, one ArrayBuffer for all scales and frames) with the same reads.
 */
export function vectorOvershoots(half: number, chunk: number): boolean {
  return chunk > 0 && half > chunk && (half - 1) % chunk === 0;
}

/** Scale 0's vertical pass: (sum - centre) >> shift for lo, (sum + round) >> shift for hi. */
export function scale0Rounding(bitDepth: number): { shift: number; round: number; centre: number } {
  const shift = bitDepth === 8 ? 8 : bitDepth;
  const round = 1 << (shift - 1);
  return { shift, round, centre: LO_SUM * round - round }; // subtract the offset, add the rounding term
}

/**
 * Scale 0: pixels (8 to 16 bits) to int16 bands. Every intermediate is an int32 in
 * libvmaf; JavaScript computes the exact sum and `>>` wraps it to int32 like the C code
 * (only 16-bit input can exceed int32), int16 stores wrap like C's conversions.
 * tmp16: the shared temporary buffer (lo row at 0, hi row at w).
 */
export function dwt2Scale0(
  src: Samples,
  srcStride: number,
  w: number,
  h: number,
  bitDepth: number,
  out: Bands16,
  outStride: number,
  tmp16: Int16Array,
  rows: DwtIndices,
  cols: DwtIndices,
  lowOnly: boolean,
  chunk: number,
): void {
  const { shift, round, centre } = scale0Rounding(bitDepth);
  const halfW = (w + 1) >> 1;
  const halfH = (h + 1) >> 1;
  const overshoot = !lowOnly && vectorOvershoots(halfW, chunk);
  for (let i = 0; i < halfH; i++) {
    const r0 = rows.tap0[i]! * srcStride;
    const r1 = rows.tap1[i]! * srcStride;
    const r2 = rows.tap2[i]! * srcStride;
    const r3 = rows.tap3[i]! * srcStride;
    if (lowOnly) {
      for (let j = 0; j < w; j++) {
        tmp16[j] = (Math.imul(15826, src[r0 + j]!) + Math.imul(27411, src[r1 + j]!) + Math.imul(7345, src[r2 + j]!) - Math.imul(4240, src[r3 + j]!) - centre) >> shift;
      }
    } else {
      vertical16(src, r0, r1, r2, r3, w, tmp16, shift, round, centre);
    }
    const row = i * outStride;
    if (lowOnly) {
      for (let j = 0; j < halfW; j++) {
        const k0 = j > 0 && j < halfW - 2 ? 2 * j - 1 : cols.tap0[j]!;
        const k1 = j > 0 && j < halfW - 2 ? k0 + 1 : cols.tap1[j]!;
        const k2 = j > 0 && j < halfW - 2 ? k0 + 2 : cols.tap2[j]!;
        const k3 = j > 0 && j < halfW - 2 ? k0 + 3 : cols.tap3[j]!;
        out.a[row + j] = (Math.imul(15826, tmp16[k0]!) + Math.imul(27411, tmp16[k1]!) + Math.imul(7345, tmp16[k2]!) - Math.imul(4240, tmp16[k3]!) + 32768) >> 16;
      }
    } else {
      horizontal16(tmp16, 0, out.a, out.v, row, halfW, overshoot, cols);
      horizontal16(tmp16, w, out.h, out.d, row, halfW, overshoot, cols);
    }
  }
}

/**
 * Scale 0's vertical pass of one output row: lo into tmp16[0 .. w), hi into tmp16[w .. 2w).
 * A function per row (the engine optimises it sooner than one long loop).
 */
function vertical16(src: Samples, r0: number, r1: number, r2: number, r3: number, w: number, tmp16: Int16Array, shift: number, round: number, centre: number): void {
  for (let j = 0; j < w; j++) {
    const s0 = src[r0 + j]!;
    const s1 = src[r1 + j]!;
    const s2 = src[r2 + j]!;
    const s3 = src[r3 + j]!;
    tmp16[j] = (Math.imul(15826, s0) + Math.imul(27411, s1) + Math.imul(7345, s2) - Math.imul(4240, s3) - centre) >> shift;
    tmp16[w + j] = (Math.imul(-4240, s0) - Math.imul(7345, s1) + Math.imul(27411, s2) - Math.imul(15826, s3) + round) >> shift;
  }
}

/**
 * Horizontal pass of one int16 temporary row (starting at tmp16[start]) into row `row` of
 * a low-pass and a high-pass band. Interior outputs read the taps 2j-1 .. 2j+2 directly,
 * two new ones per output (the other two are the previous output's); the first and the
 * last two use the mirrored taps, except the AVX overshoot, which reads on through the buffer.
 * Every sum of int16 samples times the Q15 taps fits an int32.
 */
function horizontal16(tmp16: Int16Array, start: number, low: Int16Array, high: Int16Array, row: number, halfW: number, overshoot: boolean, cols: DwtIndices): void {
  const interiorEnd = halfW - 2;
  edge16(tmp16, start, cols.tap0[0]!, cols.tap1[0]!, cols.tap2[0]!, cols.tap3[0]!, low, high, row);
  let s0 = tmp16[start + 1]!;
  let s1 = tmp16[start + 2]!;
  for (let j = 1, k = start + 3; j < interiorEnd; j++, k += 2) {
    const s2 = tmp16[k]!;
    const s3 = tmp16[k + 1]!;
    low[row + j] = lowPass16(s0, s1, s2, s3);
    high[row + j] = highPass16(s0, s1, s2, s3);
    s0 = s2;
    s1 = s3;
  }
  const j = halfW - 2;
  edge16(tmp16, start, cols.tap0[j]!, cols.tap1[j]!, cols.tap2[j]!, cols.tap3[j]!, low, high, row + j);
  const last = halfW - 1;
  if (overshoot) edge16(tmp16, start, 2 * last - 1, 2 * last, 2 * last + 1, 2 * last + 2, low, high, row + last);
  else edge16(tmp16, start, cols.tap0[last]!, cols.tap1[last]!, cols.tap2[last]!, cols.tap3[last]!, low, high, row + last);
}

function edge16(tmp16: Int16Array, start: number, k0: number, k1: number, k2: number, k3: number, low: Int16Array, high: Int16Array, at: number): void {
  const s0 = tmp16[start + k0]!;
  const s1 = tmp16[start + k1]!;
  const s2 = tmp16[start + k2]!;
  const s3 = tmp16[start + k3]!;
  low[at] = lowPass16(s0, s1, s2, s3);
  high[at] = highPass16(s0, s1, s2, s3);
}

// Math.imul: int32 products without the engine's overflow checks (a large share of the DWT's time)
function lowPass16(s0: number, s1: number, s2: number, s3: number): number {
  return (Math.imul(15826, s0) + Math.imul(27411, s1) + Math.imul(7345, s2) - Math.imul(4240, s3) + 32768) >> 16;
}

function highPass16(s0: number, s1: number, s2: number, s3: number): number {
  return (Math.imul(-4240, s0) - Math.imul(7345, s1) + Math.imul(27411, s2) - Math.imul(15826, s3) + 32768) >> 16;
}

/** Rounding of scales 1..3 (libvmaf's adm_dwt2_s123_combined), indexed by scale - 1: (sum + round) >> shift. */
export const DWT123_ROUNDING = [
  { vRound: 0, vShift: 0, hRound: 16384, hShift: 15 },
  { vRound: 32768, vShift: 16, hRound: 32768, hShift: 16 },
  { vRound: 32768, vShift: 16, hRound: 16384, hShift: 15 },
] as const;
const V_ROUND = DWT123_ROUNDING.map((r) => r.vRound);
const V_SCALE = DWT123_ROUNDING.map((r) => 2 ** -r.vShift);
const H_ROUND = DWT123_ROUNDING.map((r) => r.hRound);
const H_SCALE = DWT123_ROUNDING.map((r) => 2 ** -r.hShift);

/** Vertical pass of one image at scales 1..3 into tmp32[lo .. lo + w) and tmp32[hi .. hi + w). */
function verticalInt32(src: Int16Array | Int32Array, r0: number, r1: number, r2: number, r3: number, w: number, tmp32: Int32Array, lo: number, hi: number, vRound: number, vScale: number): void {
  for (let j = 0; j < w; j++) {
    const s0 = src[r0 + j]!;
    const s1 = src[r1 + j]!;
    const s2 = src[r2 + j]!;
    const s3 = src[r3 + j]!;
    // Int32Array stores wrap like C's (int32_t) casts.
    tmp32[lo + j] = Math.floor((15826 * s0 + 27411 * s1 + 7345 * s2 - 4240 * s3 + vRound) * vScale);
    tmp32[hi + j] = Math.floor((-4240 * s0 - 7345 * s1 + 27411 * s2 - 15826 * s3 + vRound) * vScale);
  }
}

/**
 * verticalInt32 at scale 1, whose source is scale 0's int16 a band and whose shift is 0:
 * the sums fit an int32, so int32 products (Math.imul) give them exactly.
 */
function verticalScale1(src: Int16Array, r0: number, r1: number, r2: number, r3: number, w: number, tmp32: Int32Array, lo: number, hi: number): void {
  for (let j = 0; j < w; j++) {
    const s0 = src[r0 + j]!;
    const s1 = src[r1 + j]!;
    const s2 = src[r2 + j]!;
    const s3 = src[r3 + j]!;
    tmp32[lo + j] = Math.imul(15826, s0) + Math.imul(27411, s1) + Math.imul(7345, s2) - Math.imul(4240, s3);
    tmp32[hi + j] = Math.imul(-4240, s0) - Math.imul(7345, s1) + Math.imul(27411, s2) - Math.imul(15826, s3);
  }
}

/**
 * Horizontal pass of one int32 temporary row (from tmp32[start]) into row `row` of a
 * low-pass and a high-pass band at scales 1..3: as horizontal16, with the int64 sums as
 * exact doubles (below 2^47) and floor() as the arithmetic shift.
 */
function horizontalInt32(tmp32: Int32Array, start: number, low: Int32Array, high: Int32Array, row: number, halfW: number, overshoot: boolean, cols: DwtIndices, round: number, scale: number): void {
  const interiorEnd = halfW - 2;
  edge32(tmp32, start, cols.tap0[0]!, cols.tap1[0]!, cols.tap2[0]!, cols.tap3[0]!, low, high, row, round, scale);
  let s0 = tmp32[start + 1]!;
  let s1 = tmp32[start + 2]!;
  for (let j = 1, k = start + 3; j < interiorEnd; j++, k += 2) {
    const s2 = tmp32[k]!;
    const s3 = tmp32[k + 1]!;
    low[row + j] = Math.floor((15826 * s0 + 27411 * s1 + 7345 * s2 - 4240 * s3 + round) * scale);
    high[row + j] = Math.floor((-4240 * s0 - 7345 * s1 + 27411 * s2 - 15826 * s3 + round) * scale);
    s0 = s2;
    s1 = s3;
  }
  const j = halfW - 2;
  edge32(tmp32, start, cols.tap0[j]!, cols.tap1[j]!, cols.tap2[j]!, cols.tap3[j]!, low, high, row + j, round, scale);
  const last = halfW - 1;
  if (overshoot) edge32(tmp32, start, 2 * last - 1, 2 * last, 2 * last + 1, 2 * last + 2, low, high, row + last, round, scale);
  else edge32(tmp32, start, cols.tap0[last]!, cols.tap1[last]!, cols.tap2[last]!, cols.tap3[last]!, low, high, row + last, round, scale);
}

function edge32(tmp32: Int32Array, start: number, k0: number, k1: number, k2: number, k3: number, low: Int32Array, high: Int32Array, at: number, round: number, scale: number): void {
  const s0 = tmp32[start + k0]!;
  const s1 = tmp32[start + k1]!;
  const s2 = tmp32[start + k2]!;
  const s3 = tmp32[start + k3]!;
  low[at] = Math.floor((15826 * s0 + 27411 * s1 + 7345 * s2 - 4240 * s3 + round) * scale);
  high[at] = Math.floor((-4240 * s0 - 7345 * s1 + 27411 * s2 - 15826 * s3 + round) * scale);
}

/**
 * Scales 1..3, reference and distorted together (libvmaf's combined kernel): the
 * previous scale's a bands (int16 at scale 1, int32 after) to int32 bands.
 * Accumulators are int64 in libvmaf; here they stay below 2^47 (int32 samples times
 * 16-bit taps), so doubles hold them exactly and floor() is the arithmetic shift.
 * `out.a` may be the source itself: row i is written after every row it needs is read.
 */
export function dwt2Scale123(
  srcRef: Int16Array | Int32Array,
  srcDis: Int16Array | Int32Array,
  w: number,
  h: number,
  stride: number,
  scale: number,
  outRef: Bands32,
  outDis: Bands32,
  tmp32: Int32Array,
  rows: DwtIndices,
  cols: DwtIndices,
  chunk: number,
): void {
  const vRound = V_ROUND[scale - 1]!;
  const vScale = V_SCALE[scale - 1]!;
  const hRound = H_ROUND[scale - 1]!;
  const hScale = H_SCALE[scale - 1]!;
  const halfW = (w + 1) >> 1;
  const halfH = (h + 1) >> 1;
  const overshoot = vectorOvershoots(halfW, chunk);
  for (let i = 0; i < halfH; i++) {
    const r0 = rows.tap0[i]! * stride;
    const r1 = rows.tap1[i]! * stride;
    const r2 = rows.tap2[i]! * stride;
    const r3 = rows.tap3[i]! * stride;
    if (scale === 1 && srcRef instanceof Int16Array && srcDis instanceof Int16Array) {
      verticalScale1(srcRef, r0, r1, r2, r3, w, tmp32, 0, w);
      verticalScale1(srcDis, r0, r1, r2, r3, w, tmp32, 2 * w, 3 * w);
    } else {
      verticalInt32(srcRef, r0, r1, r2, r3, w, tmp32, 0, w, vRound, vScale);
      verticalInt32(srcDis, r0, r1, r2, r3, w, tmp32, 2 * w, 3 * w, vRound, vScale);
    }
    const row = i * stride;
    horizontalInt32(tmp32, 0, outRef.a, outRef.v, row, halfW, overshoot, cols, hRound, hScale);
    horizontalInt32(tmp32, w, outRef.h, outRef.d, row, halfW, overshoot, cols, hRound, hScale);
    horizontalInt32(tmp32, 2 * w, outDis.a, outDis.v, row, halfW, overshoot, cols, hRound, hScale);
    horizontalInt32(tmp32, 3 * w, outDis.h, outDis.d, row, halfW, overshoot, cols, hRound, hScale);
  }
}
