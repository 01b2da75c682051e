import { scoreRegion } from "./band-region.ts";
import type { Orientations } from "./decouple.ts";
import { ceilLog2 } from "./dwt-indices.ts";
import { exactness } from "./exactness.ts";
import { absInt32, EXACT_LIMIT, int64ToFloat32 } from "./int64.ts";
import { ONE_THIRD_F, powf } from "@vq/core/libm";

/**
 * Contrast masking, the numerator of one scale: each CSF-weighted coefficient x of the
 * band under test is lowered by a masking threshold (the 3x3 sum of |masker| / 30, the
 * centre counted as |masker| / 15, over the three orientations) and the L3 norm of what
 * is left, (sum max(|x| - thr, 0)^3)^(1/3) + (area * noise_weight)^(1/3), is summed over
 * h, v, d. DLM: x = restored bands, masker = additive bands; AIM: the other way round.
 *
 * libvmaf cubes in int64 with rounding shifts per step and per row. Here each step is a
 * double while it provably stays exact (below 2^52; large x is split in 16-bit halves);
 * a row sum past that is recomputed alone with BigInt, and a value or a total past it
 * makes the whole scale be recomputed with BigInt.
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
}

/**
 * What the masking threshold needs of the masker bands, summed over the three
 * orientations per coefficient (csf-bands.ts fills them): `flt` = sum of |csf| / 30 (the
 * 3x3 filter's input) and `centre` = sum of |csf| / 15 (the centre tap's own term). The
 * threshold of a coefficient is the 8 neighbours' flt plus its centre: one window instead
 * of three, the same int32 value (sums wrap like libvmaf's int32 sums, mod 2^32).
 */
export interface MaskerSums {
  flt: Int32Array;
  centre: Int32Array;
}

type Bands = Orientations<Int16Array> | Orientations<Int32Array>;

/** Per-pixel input of one scale: x = |weighted coefficient| before the threshold. */
interface Rules {
  /** |x_theta| (int32, abs(INT_MIN) = INT_MIN as in C) */
  magnitude(theta: number, value: number): number;
  subShift: readonly number[];
}

/** Threshold of one coefficient: the 8 neighbours of its 3x3 window plus its centre term (window mirrored at the edges). */
function threshold(masker: MaskerSums, up: number, mid: number, down: number, jl: number, j: number, jr: number): number {
  const f = masker.flt;
  return (f[up + jl]! + f[up + j]! + f[up + jr]! + f[mid + jl]! + masker.centre[mid + j]! + f[mid + jr]! + f[down + jl]! + f[down + j]! + f[down + jr]!) | 0;
}

/** BigInt recomputation of row i's three cube sums (before the row shift): libvmaf's int64 arithmetic, wrap-arounds included. */
function exactRow(src: Bands, masker: MaskerSums, rules: Rules, shifts: readonly CubeShifts[], layout: MaskingLayout, i: number): bigint[] {
  const { w, h, stride } = layout;
  const { colStart, colEnd } = walkRange(w, h);
  const srcBands = [src.h, src.v, src.d];
  const up = (i === 0 ? 1 : i - 1) * stride;
  const mid = i * stride;
  const down = (i === h - 1 ? h - 1 : i + 1) * stride;
  const rows = [0n, 0n, 0n];
  for (let j = colStart; j < colEnd; j++) {
    const thr = threshold(masker, up, mid, down, j === 0 ? 1 : j - 1, j, j === w - 1 ? w - 1 : j + 1);
    for (let theta = 0; theta < 3; theta++) {
      let x = (rules.magnitude(theta, srcBands[theta]![mid + j]!) - (thr << rules.subShift[theta]!)) | 0;
      if (x < 0) x = 0;
      rows[theta] = BigInt.asIntN(64, rows[theta]! + maskedCubeExact(x, shifts[theta]!));
    }
  }
  return rows;
}

/** Row i's contribution to the sums, libvmaf's (int64)(row + round) >> shift. */
function shiftedRow(row: bigint, h: number): bigint {
  const rowShift = BigInt(ceilLog2(h));
  const rowRound = rowShift > 0n ? 1n << (rowShift - 1n) : 0n;
  return BigInt.asIntN(64, row + rowRound) >> rowShift;
}

/** BigInt recomputation of the three row-shifted sums: libvmaf's int64 arithmetic, wrap-arounds included. */
function exactSums(src: Bands, masker: MaskerSums, rules: Rules, shifts: readonly CubeShifts[], layout: MaskingLayout): bigint[] {
  const { w, h } = layout;
  const { rowStart, rowEnd } = walkRange(w, h);
  const sums = [0n, 0n, 0n];
  for (let i = rowStart; i < rowEnd; i++) {
    const rows = exactRow(src, masker, rules, shifts, layout, i);
    for (let theta = 0; theta < 3; theta++) sums[theta] = BigInt.asIntN(64, sums[theta]! + shiftedRow(rows[theta]!, h));
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
function borderTerm(src: Bands, masker: MaskerSums, rules: Rules, shifts: readonly CubeShifts[], layout: MaskingLayout, i: number, j: number, rows: Float64Array): void {
  const { w, h, stride } = layout;
  const up = (i === 0 ? 1 : i - 1) * stride;
  const mid = i * stride;
  const down = (i === h - 1 ? h - 1 : i + 1) * stride;
  const thr = threshold(masker, up, mid, down, j === 0 ? 1 : j - 1, j, j === w - 1 ? w - 1 : j + 1);
  const srcBands = [src.h, src.v, src.d];
  for (let theta = 0; theta < 3; theta++) {
    let x = (rules.magnitude(theta, srcBands[theta]![mid + j]!) - (thr << rules.subShift[theta]!)) | 0;
    if (x < 0) x = 0;
    rows[theta] = rows[theta]! + maskedCube(x, shifts[theta]!);
  }
}

/**
 * The interior of one row [j0, j1) of a scale, in one pass: per coefficient the
 * threshold (a rolling 3x3 sum of masker.flt, three new loads per step, plus the centre
 * term), then x = |coefficient * weight| - (threshold << shift) and the masked cube of
 * each orientation, added to rows[0..2]. The direct cube is written out (x < 2^26);
 * larger x go through maskedCube, whose NaN (not exact) makes the caller use BigInt.
 */
function interiorRow(
  masker: MaskerSums,
  mid: number,
  stride: number,
  j0: number,
  j1: number,
  rows: Float64Array,
  xh: Int16Array | Int32Array,
  xv: Int16Array | Int32Array,
  xd: Int16Array | Int32Array,
  wh: number,
  wv: number,
  wd: number,
  shiftHv: number,
  shiftD: number,
  kHv: CubeShifts,
  kD: CubeShifts,
): void {
  const flt = masker.flt;
  const centre = masker.centre;
  const up = mid - stride;
  const down = mid + stride;
  const sqRoundHv = kHv.squareRound;
  const sqScaleHv = kHv.squareScale;
  const cubeRoundHv = kHv.cubeRound;
  const cubeScaleHv = kHv.cubeScale;
  const sqRoundD = kD.squareRound;
  const sqScaleD = kD.squareScale;
  const cubeRoundD = kD.cubeRound;
  const cubeScaleD = kD.cubeScale;
  let sumH = 0;
  let sumV = 0;
  let sumD = 0;
  let n = j0 - 1;
  let columnPrev = flt[up + n]! + flt[mid + n]! + flt[down + n]!;
  let middle = flt[mid + j0]!;
  let column = flt[up + j0]! + middle + flt[down + j0]!;
  for (let j = j0; j < j1; j++) {
    n = j + 1;
    const middleNext = flt[mid + n]!;
    const columnNext = flt[up + n]! + middleNext + flt[down + n]!;
    const m = mid + j;
    const thr = (columnPrev + column + columnNext - middle + centre[m]!) | 0;
    columnPrev = column;
    column = columnNext;
    middle = middleNext;
    // |coefficient * weight| (an int32 product; weight 1 at scales 1..3, whose |INT_MIN|
    // reads 2^31 here and wraps back to INT_MIN with the | 0, as C's abs leaves it)
    const x0 = (Math.abs(Math.imul(xh[m]!, wh)) - (thr << shiftHv)) | 0;
    const x1 = (Math.abs(Math.imul(xv[m]!, wv)) - (thr << shiftHv)) | 0;
    const x2 = (Math.abs(Math.imul(xd[m]!, wd)) - (thr << shiftD)) | 0;
    if (x0 > 0) sumH += x0 < DIRECT_LIMIT ? Math.floor((Math.floor((x0 * x0 + sqRoundHv) * sqScaleHv) * x0 + cubeRoundHv) * cubeScaleHv) : maskedCube(x0, kHv);
    if (x1 > 0) sumV += x1 < DIRECT_LIMIT ? Math.floor((Math.floor((x1 * x1 + sqRoundHv) * sqScaleHv) * x1 + cubeRoundHv) * cubeScaleHv) : maskedCube(x1, kHv);
    if (x2 > 0) sumD += x2 < DIRECT_LIMIT ? Math.floor((Math.floor((x2 * x2 + sqRoundD) * sqScaleD) * x2 + cubeRoundD) * cubeScaleD) : maskedCube(x2, kD);
  }
  rows[0] = rows[0]! + sumH;
  rows[1] = rows[1]! + sumV;
  rows[2] = rows[2]! + sumD;
}

/** The row walk shared by both scale kinds: borders through borderTerm, the interior through interiorRow. */
function maskedSums(
  src: Bands,
  masker: MaskerSums,
  rules: Rules,
  shifts: readonly CubeShifts[],
  weights: readonly number[],
  layout: MaskingLayout,
  sums: Float64Array,
): boolean {
  // fills sums[0..2]; false when they may not be exact (the caller recomputes with BigInt)
  const { w, h, stride } = layout;
  const walk = walkRange(w, h);
  const rowShift = ceilLog2(h);
  const rowRound = Math.trunc(2 ** (rowShift - 1));
  const rowScale = 2 ** -rowShift;
  const rows = new Float64Array(3);
  const inner0 = Math.max(walk.colStart, 1);
  const inner1 = Math.min(walk.colEnd, w - 1);
  const [kHv, , kD] = shifts as [CubeShifts, CubeShifts, CubeShifts];
  const [wh, wv, wd] = weights as [number, number, number];
  const [shiftHv, , shiftD] = rules.subShift as [number, number, number];
  // the split cubes need cube shifts <= 16
  let exact = kHv.cube <= 16 && kD.cube <= 16 && !exactness.forceBigInt;
  for (let i = walk.rowStart; i < walk.rowEnd && exact; i++) {
    if (walk.colStart === 0) borderTerm(src, masker, rules, shifts, layout, i, 0, rows);
    if (i > 0 && i < h - 1) {
      interiorRow(masker, i * stride, stride, inner0, inner1, rows, src.h, src.v, src.d, wh, wv, wd, shiftHv, shiftD, kHv, kD);
    } else {
      for (let j = inner0; j < inner1; j++) borderTerm(src, masker, rules, shifts, layout, i, j, rows);
    }
    if (walk.colEnd === w) borderTerm(src, masker, rules, shifts, layout, i, w - 1, rows);
    if (rows[0]! < EXACT_LIMIT && rows[1]! < EXACT_LIMIT && rows[2]! < EXACT_LIMIT) {
      exact = closeRow(rows, sums, rowRound, rowScale);
    } else {
      // A row past 2^52 (one or two rows of a 4K picture's scale 0): only that row in BigInt.
      const exactRows = exactRow(src, masker, rules, shifts, layout, i);
      exactness.rowsInBigInt++;
      for (let theta = 0; theta < 3; theta++) {
        const shifted = Number(shiftedRow(exactRows[theta]!, h));
        sums[theta] = sums[theta]! + shifted;
        rows[theta] = 0;
        if (!(Math.abs(shifted) < EXACT_LIMIT)) exact = false;
      }
    }
  }
  return exact && Math.abs(sums[0]!) < EXACT_LIMIT && Math.abs(sums[1]!) < EXACT_LIMIT && Math.abs(sums[2]!) < EXACT_LIMIT;
}

const UNIT_WEIGHTS = [1, 1, 1];

/**
 * The shifts of one scale's masking, h and v alike: the squares' (Q29 h/v and Q30 d at
 * scale 0, Q30 after), the cubes' (from the band width) and the threshold's (<< 10 and
 * << 12 at scale 0, none after). Shared with the WebAssembly kernels.
 */
export function maskingShifts(scale: number, w: number) {
  const log2w = ceilLog2(w);
  return scale === 0
    ? { squareHv: 29, cubeHv: log2w - 4, squareD: 30, cubeD: log2w - 3, subHv: 10, subD: 12 }
    : { squareHv: 30, cubeHv: log2w, squareD: 30, cubeD: log2w, subHv: 0, subD: 0 };
}

/** Scale 0: int16 bands, uint16 weights (Q21 h/v, Q23 d). */
export function contrastMaskingScale0(src: Orientations<Int16Array>, masker: MaskerSums, weights: readonly number[], layout: MaskingLayout): number {
  const { w, h } = layout;
  const sums = new Float64Array(3);
  const m = maskingShifts(0, w);
  const kHv = new CubeShifts(m.squareHv, m.cubeHv);
  const shifts = [kHv, kHv, new CubeShifts(m.squareD, m.cubeD)];
  const rules: Rules = {
    magnitude: (theta, value) => Math.abs(value * weights[theta]!), // int16 * uint16 < 2^31
    subShift: [m.subHv, m.subHv, m.subD],
  };
  if (maskedSums(src, masker, rules, shifts, weights, layout, sums)) return scale0Numerator(sums, w, h, layout.noiseWeight);
  return scale0Numerator(exactSums(src, masker, rules, shifts, layout).map(Number), w, h, layout.noiseWeight);
}

/**
 * Scale 0's numerator from libvmaf's three int64 sums (h, v, d), each given as C's
 * (double) of it: (float)(accum / 2^k), then the L3 norms plus the noise floor.
 * Shared by the CPU path and the GPU twin (which reads the sums back).
 */
export function scale0Numerator(sums: ArrayLike<number>, w: number, h: number, noiseWeight: number): number {
  const { cubeHv, cubeD } = maskingShifts(0, w);
  const rowShift = ceilLog2(h);
  // int64 to double, exact division by a power of two; uint32 exponents in libvmaf
  const exponents = [(52 - cubeHv - rowShift) >>> 0, (52 - cubeHv - rowShift) >>> 0, (57 - cubeD - rowShift) >>> 0];
  return finish(sums, (a, theta) => f(a / 2 ** exponents[theta]!), walkRange(w, h).area, noiseWeight);
}

const FINAL_SHIFT = [45, 39, 36];

/**
 * Scales 1..3: `weighted` holds the CSF-weighted int32 coefficients under test (libvmaf
 * recomputes them inside its i4_adm_cm with the same formula as i4_adm_csf).
 */
export function contrastMaskingInt32(weighted: Orientations<Int32Array>, masker: MaskerSums, scale: number, layout: MaskingLayout): number {
  const { w, h } = layout;
  const sums = new Float64Array(3);
  const m = maskingShifts(scale, w);
  const k = new CubeShifts(m.squareHv, m.cubeHv);
  const shifts = [k, k, k];
  const rules: Rules = { magnitude: (_theta, value) => absInt32(value), subShift: [m.subHv, m.subHv, m.subD] };
  // below 2^53 a double converts to float as the int64 does
  if (maskedSums(weighted, masker, rules, shifts, UNIT_WEIGHTS, layout, sums)) return int32Numerator(Array.from(sums, f), scale, w, h, layout.noiseWeight);
  return int32Numerator(exactSums(weighted, masker, rules, shifts, layout).map(int64ToFloat32), scale, w, h, layout.noiseWeight);
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

