import { scoreRegion } from "./band-region.ts";
import type { Orientations } from "./decouple.ts";
import { ceilLog2 } from "./dwt-indices.ts";
import { exactness } from "./exactness.ts";
import { EXACT_LIMIT } from "./int64.ts";
import { ONE_THIRD_F, powf } from "@vq/core/libm";

/**
 * The denominator of one scale: the L3 norm of the CSF-weighted reference detail bands
 * plus a noise floor, (sum |w c|^3)^(1/3) + (area * noise_weight)^(1/3), summed over h,
 * v, d. libvmaf cubes in integers with per-row rounding shifts and applies the weight
 * w^3 in double at the end; the three terms are floats.
 *
 * Sums are exact while they stay below 2^52 (always, for real content); otherwise the
 * scale is recomputed with BigInt.
 */

const f = Math.fround;

function cube(x: number): number {
  return x * x * x; // x is a float: x * x is exact, so this is pow(x, 3) correctly rounded
}

function finish(sums: ArrayLike<number>, shiftPow: number, weights: readonly number[], area: number, noiseWeight: number): number {
  const noise = powf(f(area * noiseWeight), ONE_THIRD_F);
  let total = 0;
  for (let theta = 0; theta < 3; theta++) {
    const csf = (sums[theta]! / shiftPow) * cube(weights[theta]!);
    const term = f(powf(f(csf), ONE_THIRD_F) + noise);
    total = theta === 0 ? term : f(total + term);
  }
  return total;
}

/** Scale 0 (int16 reference bands). weights: float CSF weights [h, v, d]. */
export function csfDenominatorScale0(
  ref: Orientations<Int16Array>,
  w: number,
  h: number,
  stride: number,
  weights: readonly number[],
  noiseWeight: number,
): number {
  const { left, top, right, bottom } = scoreRegion(w, h);
  const area = (bottom - top) * (right - left);
  const shift = scale0RowShift(area);
  const round = shift > 0 ? 2 ** (shift - 1) : 0;
  const scale = 2 ** -shift;
  const bands = [ref.h, ref.v, ref.d];
  const sums = [0, 0, 0];
  let exact = !exactness.forceBigInt;
  for (let theta = 0; theta < 3 && exact; theta++) {
    const band = bands[theta]!;
    let sum = 0;
    for (let i = top; i < bottom; i++) {
      let row = 0;
      for (let x = i * stride + left, end = i * stride + right; x < end; x++) {
        const c = Math.abs(band[x]!);
        row += c * c * c; // < 2^45
      }
      if (row >= EXACT_LIMIT) exact = false;
      sum += Math.floor((row + round) * scale);
    }
    if (sum >= EXACT_LIMIT) exact = false;
    sums[theta] = sum;
  }
  return scale0Denominator(exact ? sums : exactScale0Sums(bands, stride, left, top, right, bottom, shift), w, h, weights, noiseWeight);
}

/** libvmaf's shift of scale 0's row sums: ceil(log2(area)) - 20, at least 0. */
export function scale0RowShift(area: number): number {
  return Math.max(ceilLog2(area) - 20, 0);
}

/**
 * Scale 0's denominator from libvmaf's three uint64 sums (h, v, d), each given as C's
 * (double) of it. Shared by the CPU path and the GPU twin.
 */
export function scale0Denominator(sums: ArrayLike<number>, w: number, h: number, weights: readonly number[], noiseWeight: number): number {
  const { left, top, right, bottom } = scoreRegion(w, h);
  const area = (bottom - top) * (right - left);
  return finish(sums, 2 ** (18 - scale0RowShift(area)), weights, area, noiseWeight);
}

function exactScale0Sums(bands: Int16Array[], stride: number, left: number, top: number, right: number, bottom: number, shift: number): number[] {
  const s = BigInt(shift);
  const round = shift > 0 ? 1n << (s - 1n) : 0n;
  return bands.map((band) => {
    let sum = 0n;
    for (let i = top; i < bottom; i++) {
      let row = 0n;
      for (let j = left; j < right; j++) {
        const c = BigInt(Math.abs(band[i * stride + j]!));
        row += c * c * c;
      }
      sum = BigInt.asUintN(64, sum + BigInt.asUintN(64, row + round) / (1n << s));
    }
    return Number(sum); // (double) of a uint64: one rounding
  });
}

// Per scale 1..3: the squaring shift (libvmaf rounds with 1 << shift, not 1 << (shift - 1))
// and the fixed-point exponent of the cubes.
export const DEN_SQUARE_SHIFT = [31, 30, 31];
const CONVERT_SHIFT = [32, 27, 23];
const SPLIT_LIMIT = 2 ** 26;
const TWO_M16 = 2 ** -16;

/** Scales 1..3 (int32 reference bands). */
export function csfDenominatorInt32(
  ref: Orientations<Int32Array>,
  scale: number,
  w: number,
  h: number,
  stride: number,
  weights: readonly number[],
  noiseWeight: number,
): number {
  const { left, top, right, bottom } = scoreRegion(w, h);
  const squareShift = DEN_SQUARE_SHIFT[scale - 1]!;
  const squareRound = 2 ** squareShift;
  const squareScale = 2 ** -squareShift;
  const cubeShift = ceilLog2(right - left);
  const cubeRound = Math.trunc(2 ** (cubeShift - 1));
  const cubeScale = 2 ** -cubeShift;
  const rowShift = ceilLog2(bottom - top);
  const rowRound = Math.trunc(2 ** (rowShift - 1));
  const rowScale = 2 ** -rowShift;
  const cubeSplit = 2 ** (16 - cubeShift);
  const squareSplit = 2 ** (32 - squareShift);
  const bands = [ref.h, ref.v, ref.d];
  const sums = [0, 0, 0];
  let exact = cubeShift <= 16 && !exactness.forceBigInt;
  for (let theta = 0; theta < 3 && exact; theta++) {
    const band = bands[theta]!;
    let sum = 0;
    for (let i = top; i < bottom && exact; i++) {
      let row = 0;
      for (let x = i * stride + left, end = i * stride + right; x < end; x++) {
        const c = Math.abs(band[x]!); // (uint32_t)abs(INT_MIN) = 2^31, as here
        if (c < SPLIT_LIMIT) {
          const square = Math.floor((c * c + squareRound) * squareScale); // < 2^23
          row += Math.floor((square * c + cubeRound) * cubeScale);
          continue;
        }
        // c = hi 2^16 + lo: c^2 = hi^2 2^32 + hi lo 2^17 + lo^2 and square * c = square hi 2^16 + square lo,
        // every part exact; the uint64 product cannot wrap while the result stays below 2^52
        const hi = Math.floor(c * TWO_M16);
        const lo = c - hi * 65536;
        const square = hi * hi * squareSplit + Math.floor((hi * lo * 131072 + lo * lo + squareRound) * squareScale); // < 2^34
        const upper = square * hi;
        const cube = upper * cubeSplit + Math.floor((square * lo + cubeRound) * cubeScale);
        // upper < 2^47 keeps square * c below 2^64, where libvmaf's uint64 would wrap
        if (!(cube < EXACT_LIMIT) || upper >= 2 ** 47) {
          exact = false;
          break;
        }
        row += cube;
      }
      if (!(row < EXACT_LIMIT)) exact = false;
      sum += Math.floor((row + rowRound) * rowScale);
    }
    if (!(sum < EXACT_LIMIT)) exact = false;
    sums[theta] = sum;
  }
  const exactSums = exact ? sums : exactInt32Sums(bands, stride, left, top, right, bottom, squareShift, cubeShift, rowShift);
  return int32Denominator(exactSums, scale, w, h, weights, noiseWeight);
}

/**
 * The denominator of scale 1..3 from libvmaf's three uint64 sums, each given as C's
 * (double) of it. Shared with the GPU twin.
 */
export function int32Denominator(sums: ArrayLike<number>, scale: number, w: number, h: number, weights: readonly number[], noiseWeight: number): number {
  const { left, top, right, bottom } = scoreRegion(w, h);
  // uint32 arithmetic in libvmaf: a negative exponent wraps and pow() gives infinity
  const shiftPow = 2 ** ((CONVERT_SHIFT[scale - 1]! - ceilLog2(bottom - top) - ceilLog2(right - left)) >>> 0);
  return finish(sums, shiftPow, weights, (bottom - top) * (right - left), noiseWeight);
}

function exactInt32Sums(
  bands: Int32Array[],
  stride: number,
  left: number,
  top: number,
  right: number,
  bottom: number,
  squareShift: number,
  cubeShift: number,
  rowShift: number,
): number[] {
  const sq = BigInt(squareShift);
  const cs = BigInt(cubeShift);
  const rs = BigInt(rowShift);
  const cubeRound = cubeShift > 0 ? 1n << (cs - 1n) : 0n;
  const rowRound = rowShift > 0 ? 1n << (rs - 1n) : 0n;
  const u64 = (x: bigint) => BigInt.asUintN(64, x);
  return bands.map((band) => {
    let sum = 0n;
    for (let i = top; i < bottom; i++) {
      let row = 0n;
      for (let j = left; j < right; j++) {
        const c = BigInt(Math.abs(band[i * stride + j]!));
        const square = u64(c * c + (1n << sq)) >> sq;
        row = u64(row + (u64(square * c + cubeRound) >> cs));
      }
      sum = u64(sum + (u64(row + rowRound) >> rs));
    }
    return Number(sum);
  });
}
