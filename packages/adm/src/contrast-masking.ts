import { scoreRegion } from "./band-region.ts";
import { scaledMagnitudeQ32 } from "./csf-bands.ts";
import type { Orientations } from "./decouple.ts";
import { ceilLog2 } from "./dwt-indices.ts";
import { exactness } from "./exactness.ts";
import { absInt32, EXACT_LIMIT, int64ToFloat32 } from "./int64.ts";
import { ONE_THIRD_F, powf } from "./powf.ts";

/**
 * Contrast masking, the numerator of one scale: each CSF-weighted coefficient x of the
 * band under test is lowered by a masking threshold (the 3x3 sum of |masker| / 30, the
 * centre counted as |masker| / 15, over the three orientations) and the L3 norm of what
 * is left, (sum max(|x| - thr, 0)^3)^(1/3) + (area * noise_weight)^(1/3), is summed over
 * h, v, d. DLM: x = restored bands, masker = additive bands; AIM: the other way round.
 *
 * libvmaf cubes in int64 with rounding shifts per step and per row. Here each step is a
 * double while it provably stays exact (below 2^52; large x is split in 16-bit halves);
 * a value or a sum past that makes the scale be recomputed with BigInt.
 */

const f = Math.fround;
const TWO_M16 = 2 ** -16;
const DIRECT_LIMIT = 2 ** 26;

/** Shift constants of one orientation's cube, precomputed out of the loops. */
export class CubeShifts {
  readonly squareRound: number;
  readonly squareScale: number;
  readonly squareSplit: number;
  readonly cubeRound: number;
  readonly cubeScale: number;
  readonly cubeSplit: number;

  constructor(
    readonly square: number,
    readonly cube: number,
  ) {
    this.squareRound = 2 ** (square - 1);
    this.squareScale = 2 ** -square;
    this.squareSplit = 2 ** (32 - square);
    this.cubeRound = Math.trunc(2 ** (cube - 1)); // (uint32_t)pow(2, shift - 1)
    this.cubeScale = 2 ** -cube;
    this.cubeSplit = 2 ** (16 - cube);
  }
}

/**
 * ((int32)((x^2 + 2^(sq-1)) >> sq) * x + round) >> cube for 0 <= x < 2^31 and cube <= 16, exactly, or
 * NaN when the result might not be exact in a double (or is negative after the wrap).
 */
export function maskedCube(x: number, k: CubeShifts): number {
  if (x < DIRECT_LIMIT) {
    const square = Math.floor((x * x + k.squareRound) * k.squareScale); // < 2^23
    return Math.floor((square * x + k.cubeRound) * k.cubeScale);
  }
  // x = hi 2^16 + lo: x^2 = hi^2 2^32 + hi lo 2^17 + lo^2, square * x = square hi 2^16 + square lo
  const hi = Math.floor(x * TWO_M16);
  const lo = x - hi * 65536;
  const square = (hi * hi * k.squareSplit + Math.floor((hi * lo * 131072 + lo * lo + k.squareRound) * k.squareScale)) | 0;
  const value = square * hi * k.cubeSplit + Math.floor((square * lo + k.cubeRound) * k.cubeScale);
  return value >= 0 && value < EXACT_LIMIT ? value : NaN;
}

export function maskedCubeExact(x: number, k: CubeShifts): bigint {
  const bx = BigInt(x);
  const square = BigInt.asIntN(32, (bx * bx + (1n << BigInt(k.square - 1))) >> BigInt(k.square));
  const cubeRound = k.cube > 0 ? 1n << BigInt(k.cube - 1) : 0n;
  return (square * bx + cubeRound) >> BigInt(k.cube);
}

/**
 * The coefficients libvmaf visits: the score region, except that row/column 0 and the
 * last row/column join when the region reaches the edge. Their 3x3 windows mirror row
 * -1 to 1 and clamp row h to h - 1 (and the same for columns).
 */
export interface Walk {
  rowStart: number;
  rowEnd: number;
  colStart: number;
  colEnd: number;
  area: number;
}

export function walkRange(w: number, h: number): Walk {
  const { left, top, right, bottom } = scoreRegion(w, h);
  return {
    rowStart: top <= 0 ? 0 : Math.max(top, 1),
    rowEnd: bottom > h - 1 ? h : Math.min(bottom, h - 1),
    colStart: left <= 0 ? 0 : Math.max(left, 1),
    colEnd: right > w - 1 ? w : Math.min(right, w - 1),
    area: (bottom - top) * (right - left),
  };
}

export interface MaskingLayout {
  w: number;
  h: number;
  stride: number;
  noiseWeight: number;
  /** scratch row of at least w int32 (the thresholds of one row) */
  thresholds: Int32Array;
}

type Bands = Orientations<Int16Array> | Orientations<Int32Array>;

/** Per-pixel inputs of one scale: x = |weighted coefficient|, centre = the masker's centre term. */
interface Rules {
  /** |x_theta| before the threshold (int32, abs(INT_MIN) = INT_MIN as in C) */
  magnitude(theta: number, value: number): number;
  centre(value: number): number;
  subShift: readonly number[];
}

/** Threshold of one coefficient: the 3x3 window of flt plus the masker's centre term, all orientations. */
function threshold(masker: Bands, flt: Bands, rules: Rules, up: number, mid: number, down: number, jl: number, j: number, jr: number): number {
  let thr = 0;
  for (const [m, b] of [
    [masker.h, flt.h],
    [masker.v, flt.v],
    [masker.d, flt.d],
  ] as const) {
    thr += b[up + jl]! + b[up + j]! + b[up + jr]! + b[mid + jl]! + rules.centre(m[mid + j]!) + b[mid + jr]! + b[down + jl]! + b[down + j]! + b[down + jr]!;
  }
  return thr | 0; // int32 sums wrap
}

/** BigInt recomputation of the three row-shifted sums: libvmaf's int64 arithmetic, wrap-arounds included. */
function exactSums(src: Bands, masker: Bands, flt: Bands, rules: Rules, shifts: readonly CubeShifts[], layout: MaskingLayout): bigint[] {
  const { w, h, stride } = layout;
  const { rowStart, rowEnd, colStart, colEnd } = walkRange(w, h);
  const rowShift = BigInt(ceilLog2(h));
  const rowRound = rowShift > 0n ? 1n << (rowShift - 1n) : 0n;
  const srcBands = [src.h, src.v, src.d];
  const sums = [0n, 0n, 0n];
  for (let i = rowStart; i < rowEnd; i++) {
    const up = (i === 0 ? 1 : i - 1) * stride;
    const mid = i * stride;
    const down = (i === h - 1 ? h - 1 : i + 1) * stride;
    const rows = [0n, 0n, 0n];
    for (let j = colStart; j < colEnd; j++) {
      const thr = threshold(masker, flt, rules, up, mid, down, j === 0 ? 1 : j - 1, j, j === w - 1 ? w - 1 : j + 1);
      for (let theta = 0; theta < 3; theta++) {
        let x = (rules.magnitude(theta, srcBands[theta]![mid + j]!) - (thr << rules.subShift[theta]!)) | 0;
        if (x < 0) x = 0;
        rows[theta] = BigInt.asIntN(64, rows[theta]! + maskedCubeExact(x, shifts[theta]!));
      }
    }
    for (let theta = 0; theta < 3; theta++) sums[theta] = BigInt.asIntN(64, sums[theta]! + (BigInt.asIntN(64, rows[theta]! + rowRound) >> rowShift));
  }
  return sums;
}

/** Adds one finished row to the sums; false when a sum may have left the exact range. */
function closeRow(rows: Float64Array, sums: Float64Array, rowRound: number, rowScale: number): boolean {
  let ok = true;
  for (let theta = 0; theta < 3; theta++) {
    const row = rows[theta]!;
    if (!(row < EXACT_LIMIT)) ok = false;
    sums[theta] = sums[theta]! + Math.floor((row + rowRound) * rowScale);
    rows[theta] = 0;
  }
  return ok;
}

function finish(accum: ArrayLike<number>, toFloat: (a: number, theta: number) => number, area: number, noiseWeight: number): number {
  const noise = powf(f(area * noiseWeight), ONE_THIRD_F);
  let total = 0;
  for (let theta = 0; theta < 3; theta++) {
    const term = f(powf(toFloat(accum[theta]!, theta), ONE_THIRD_F) + noise);
    total = theta === 0 ? term : f(total + term);
  }
  return total;
}

/**
 * Border coefficients (row/column 0, last row/column) through the general path; the
 * interior loops of the two scale kinds below are written out for speed.
 */
function borderTerm(src: Bands, masker: Bands, flt: Bands, rules: Rules, shifts: readonly CubeShifts[], layout: MaskingLayout, i: number, j: number, rows: Float64Array): void {
  const { w, h, stride } = layout;
  const up = (i === 0 ? 1 : i - 1) * stride;
  const mid = i * stride;
  const down = (i === h - 1 ? h - 1 : i + 1) * stride;
  const thr = threshold(masker, flt, rules, up, mid, down, j === 0 ? 1 : j - 1, j, j === w - 1 ? w - 1 : j + 1);
  const srcBands = [src.h, src.v, src.d];
  for (let theta = 0; theta < 3; theta++) {
    let x = (rules.magnitude(theta, srcBands[theta]![mid + j]!) - (thr << rules.subShift[theta]!)) | 0;
    if (x < 0) x = 0;
    rows[theta] = rows[theta]! + maskedCube(x, shifts[theta]!);
  }
}

/**
 * Masking thresholds of the interior columns [j0, j1) of one row, all three orientations:
 * the 3x3 flt sums as a rolling sum of column sums (9 loads per step, not 27) plus the
 * masker's centre terms. Stored to int32, which wraps like libvmaf's int32 sums.
 */
function rowThresholds16(
  fh: Int16Array,
  fv: Int16Array,
  fd: Int16Array,
  mh: Int16Array,
  mv: Int16Array,
  md: Int16Array,
  up: number,
  mid: number,
  down: number,
  j0: number,
  j1: number,
  out: Int32Array,
): void {
  let n = j0 - 1;
  let columnPrev = fh[up + n]! + fv[up + n]! + fd[up + n]! + fh[mid + n]! + fv[mid + n]! + fd[mid + n]! + fh[down + n]! + fv[down + n]! + fd[down + n]!;
  n = j0;
  let middle = fh[mid + n]! + fv[mid + n]! + fd[mid + n]!;
  let column = middle + fh[up + n]! + fv[up + n]! + fd[up + n]! + fh[down + n]! + fv[down + n]! + fd[down + n]!;
  for (let j = j0; j < j1; j++) {
    n = j + 1;
    const middleNext = fh[mid + n]! + fv[mid + n]! + fd[mid + n]!;
    const columnNext = middleNext + fh[up + n]! + fv[up + n]! + fd[up + n]! + fh[down + n]! + fv[down + n]! + fd[down + n]!;
    const m = mid + j;
    out[j] = columnPrev + column + columnNext - middle + centre16(mh[m]!) + centre16(mv[m]!) + centre16(md[m]!);
    columnPrev = column;
    column = columnNext;
    middle = middleNext;
  }
}

/** rowThresholds16 for int32 bands (scales 1..3); the centre term is |m| / 15 in Q32. */
function rowThresholds32(
  fh: Int32Array,
  fv: Int32Array,
  fd: Int32Array,
  mh: Int32Array,
  mv: Int32Array,
  md: Int32Array,
  up: number,
  mid: number,
  down: number,
  j0: number,
  j1: number,
  out: Int32Array,
): void {
  let n = j0 - 1;
  let columnPrev = fh[up + n]! + fv[up + n]! + fd[up + n]! + fh[mid + n]! + fv[mid + n]! + fd[mid + n]! + fh[down + n]! + fv[down + n]! + fd[down + n]!;
  n = j0;
  let middle = fh[mid + n]! + fv[mid + n]! + fd[mid + n]!;
  let column = middle + fh[up + n]! + fv[up + n]! + fd[up + n]! + fh[down + n]! + fv[down + n]! + fd[down + n]!;
  for (let j = j0; j < j1; j++) {
    n = j + 1;
    const middleNext = fh[mid + n]! + fv[mid + n]! + fd[mid + n]!;
    const columnNext = middleNext + fh[up + n]! + fv[up + n]! + fd[up + n]! + fh[down + n]! + fv[down + n]! + fd[down + n]!;
    const m = mid + j;
    out[j] = columnPrev + column + columnNext - middle + centre32(mh[m]!) + centre32(mv[m]!) + centre32(md[m]!);
    columnPrev = column;
    column = columnNext;
    middle = middleNext;
  }
}

/** Scale 0: masked cubes of one orientation over [j0, j1) of one row (NaN if one declined). */
function rowCubes16(src: Int16Array, weight: number, subShift: number, k: CubeShifts, thresholds: Int32Array, mid: number, j0: number, j1: number): number {
  const { squareRound, squareScale, squareSplit, cubeRound, cubeScale, cubeSplit } = k;
  let sum = 0;
  let large = 0;
  for (let j = j0; j < j1; j++) {
    const x = (Math.abs(src[mid + j]! * weight) - (thresholds[j]! << subShift)) | 0;
    if (x <= 0) continue;
    if (x < DIRECT_LIMIT) {
      sum += Math.floor((Math.floor((x * x + squareRound) * squareScale) * x + cubeRound) * cubeScale);
    } else {
      // maskedCube's split path, inline (a call here slows the whole loop down)
      const hi = Math.floor(x * TWO_M16);
      const lo = x - hi * 65536;
      const square = (hi * hi * squareSplit + Math.floor((hi * lo * 131072 + lo * lo + squareRound) * squareScale)) | 0;
      const value = square * hi * cubeSplit + Math.floor((square * lo + cubeRound) * cubeScale);
      if (!(value >= 0 && value < EXACT_LIMIT)) large = NaN;
      sum += value;
    }
  }
  return sum + large;
}

/** Scales 1..3: the same on CSF-weighted int32 coefficients. */
function rowCubes32(src: Int32Array, k: CubeShifts, thresholds: Int32Array, mid: number, j0: number, j1: number): number {
  const { squareRound, squareScale, squareSplit, cubeRound, cubeScale, cubeSplit } = k;
  let sum = 0;
  let large = 0;
  for (let j = j0; j < j1; j++) {
    const x = (absInt32(src[mid + j]!) - thresholds[j]!) | 0;
    if (x <= 0) continue;
    if (x < DIRECT_LIMIT) {
      sum += Math.floor((Math.floor((x * x + squareRound) * squareScale) * x + cubeRound) * cubeScale);
    } else {
      const hi = Math.floor(x * TWO_M16);
      const lo = x - hi * 65536;
      const square = (hi * hi * squareSplit + Math.floor((hi * lo * 131072 + lo * lo + squareRound) * squareScale)) | 0;
      const value = square * hi * cubeSplit + Math.floor((square * lo + cubeRound) * cubeScale);
      if (!(value >= 0 && value < EXACT_LIMIT)) large = NaN;
      sum += value;
    }
  }
  return sum + large;
}

function centre32(value: number): number {
  return scaledMagnitudeQ32(value, ONE_BY_15_Q32);
}

const ONE_BY_15_Q12 = 8738;

/** int16 cast of (|m| / 15 in Q12), libvmaf's scale-0 centre term. */
function centre16(value: number): number {
  return (((ONE_BY_15_Q12 * Math.abs(value) + 2048) >> 12) << 16) >> 16;
}

/** Scale 0: int16 bands, uint16 weights (Q21 h/v, Q23 d). */
export function contrastMaskingScale0(
  src: Orientations<Int16Array>,
  masker: Orientations<Int16Array>,
  flt: Orientations<Int16Array>,
  weights: readonly number[],
  layout: MaskingLayout,
): number {
  const { w, h, stride } = layout;
  const cubeHv = ceilLog2(w) - 4;
  const cubeD = ceilLog2(w) - 3;
  const rowShift = ceilLog2(h);
  const shifts = [new CubeShifts(29, cubeHv), new CubeShifts(29, cubeHv), new CubeShifts(30, cubeD)];
  const rules: Rules = {
    magnitude: (theta, value) => Math.abs(value * weights[theta]!), // int16 * uint16 < 2^31
    centre: centre16,
    subShift: [10, 10, 12],
  };
  const walk = walkRange(w, h);
  const rows = new Float64Array(3);
  const sums = new Float64Array(3);
  const rowRound = Math.trunc(2 ** (rowShift - 1));
  const rowScale = 2 ** -rowShift;
  const [wh, wv, wd] = weights as [number, number, number];
  const [kh, kv, kd] = shifts as [CubeShifts, CubeShifts, CubeShifts];
  const { h: sh, v: sv, d: sd } = src;
  const { h: mh, v: mv, d: md } = masker;
  const { h: fh, v: fv, d: fd } = flt;
  const inner0 = Math.max(walk.colStart, 1);
  const inner1 = Math.min(walk.colEnd, w - 1);
  const thresholds = layout.thresholds;
  let exact = cubeD <= 16 && !exactness.forceBigInt; // the split cubes need cube shifts <= 16
  for (let i = walk.rowStart; i < walk.rowEnd && exact; i++) {
    if (walk.colStart === 0) borderTerm(src, masker, flt, rules, shifts, layout, i, 0, rows);
    if (i > 0 && i < h - 1) {
      const mid = i * stride;
      rowThresholds16(fh, fv, fd, mh, mv, md, mid - stride, mid, mid + stride, inner0, inner1, thresholds);
      rows[0] = rows[0]! + rowCubes16(sh, wh, 10, kh, thresholds, mid, inner0, inner1);
      rows[1] = rows[1]! + rowCubes16(sv, wv, 10, kv, thresholds, mid, inner0, inner1);
      rows[2] = rows[2]! + rowCubes16(sd, wd, 12, kd, thresholds, mid, inner0, inner1);
    } else {
      for (let j = inner0; j < inner1; j++) borderTerm(src, masker, flt, rules, shifts, layout, i, j, rows);
    }
    if (walk.colEnd === w) borderTerm(src, masker, flt, rules, shifts, layout, i, w - 1, rows);
    exact = closeRow(rows, sums, rowRound, rowScale);
  }
  if (exact && sums.every((s) => s < EXACT_LIMIT)) return scale0Numerator(sums, w, h, layout.noiseWeight);
  return scale0Numerator(exactSums(src, masker, flt, rules, shifts, layout).map(Number), w, h, layout.noiseWeight);
}

/**
 * Scale 0's numerator from libvmaf's three int64 sums (h, v, d), each given as C's
 * (double) of it: (float)(accum / 2^k), then the L3 norms plus the noise floor.
 * Shared by the CPU path and the GPU twin (which reads the sums back).
 */
export function scale0Numerator(sums: ArrayLike<number>, w: number, h: number, noiseWeight: number): number {
  const cubeHv = ceilLog2(w) - 4;
  const cubeD = ceilLog2(w) - 3;
  const rowShift = ceilLog2(h);
  // int64 to double, exact division by a power of two; uint32 exponents in libvmaf
  const exponents = [(52 - cubeHv - rowShift) >>> 0, (52 - cubeHv - rowShift) >>> 0, (57 - cubeD - rowShift) >>> 0];
  return finish(sums, (a, theta) => f(a / 2 ** exponents[theta]!), walkRange(w, h).area, noiseWeight);
}

const ONE_BY_15_Q32 = 286331153;
const FINAL_SHIFT = [45, 39, 36];

/**
 * Scales 1..3: `weighted` holds the CSF-weighted int32 coefficients under test (libvmaf
 * recomputes them inside its i4_adm_cm with the same formula as i4_adm_csf).
 */
export function contrastMaskingInt32(
  weighted: Orientations<Int32Array>,
  masker: Orientations<Int32Array>,
  flt: Orientations<Int32Array>,
  scale: number,
  layout: MaskingLayout,
): number {
  const src = weighted;
  const { w, h, stride } = layout;
  const cubeShift = ceilLog2(w);
  const rowShift = ceilLog2(h);
  const k = new CubeShifts(30, cubeShift);
  const shifts = [k, k, k];
  const rules: Rules = {
    magnitude: (_theta, value) => absInt32(value),
    centre: (value) => scaledMagnitudeQ32(value, ONE_BY_15_Q32),
    subShift: [0, 0, 0],
  };
  const walk = walkRange(w, h);
  const rows = new Float64Array(3);
  const sums = new Float64Array(3);
  const rowRound = Math.trunc(2 ** (rowShift - 1));
  const rowScale = 2 ** -rowShift;
  const { h: sh, v: sv, d: sd } = src;
  const { h: mh, v: mv, d: md } = masker;
  const { h: fh, v: fv, d: fd } = flt;
  const inner0 = Math.max(walk.colStart, 1);
  const inner1 = Math.min(walk.colEnd, w - 1);
  const thresholds = layout.thresholds;
  let exact = cubeShift <= 16 && !exactness.forceBigInt;
  for (let i = walk.rowStart; i < walk.rowEnd && exact; i++) {
    if (walk.colStart === 0) borderTerm(src, masker, flt, rules, shifts, layout, i, 0, rows);
    if (i > 0 && i < h - 1) {
      const mid = i * stride;
      rowThresholds32(fh, fv, fd, mh, mv, md, mid - stride, mid, mid + stride, inner0, inner1, thresholds);
      rows[0] = rows[0]! + rowCubes32(sh, k, thresholds, mid, inner0, inner1);
      rows[1] = rows[1]! + rowCubes32(sv, k, thresholds, mid, inner0, inner1);
      rows[2] = rows[2]! + rowCubes32(sd, k, thresholds, mid, inner0, inner1);
    } else {
      for (let j = inner0; j < inner1; j++) borderTerm(src, masker, flt, rules, shifts, layout, i, j, rows);
    }
    if (walk.colEnd === w) borderTerm(src, masker, flt, rules, shifts, layout, i, w - 1, rows);
    exact = closeRow(rows, sums, rowRound, rowScale);
  }
  // below 2^53 a double converts to float as the int64 does
  if (exact && sums.every((s) => s < EXACT_LIMIT)) return int32Numerator(Array.from(sums, f), scale, w, h, layout.noiseWeight);
  return int32Numerator(exactSums(src, masker, flt, rules, shifts, layout).map(int64ToFloat32), scale, w, h, layout.noiseWeight);
}

/**
 * The numerator of scale 1..3 from libvmaf's three int64 sums, each given as C's (float)
 * of it (int64 / float converts the int64 to float first). Shared with the GPU twin.
 */
export function int32Numerator(sumsAsFloat: ArrayLike<number>, scale: number, w: number, h: number, noiseWeight: number): number {
  // float final_shift[] in libvmaf, uint32 exponent (a wrap gives a huge power: infinity)
  const finalShift = f(2 ** ((FINAL_SHIFT[scale - 1]! - ceilLog2(w) - ceilLog2(h)) >>> 0));
  return finish(sumsAsFloat, (a) => f(a / finalShift), walkRange(w, h).area, noiseWeight);
}

