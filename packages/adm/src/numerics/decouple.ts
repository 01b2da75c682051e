import { filterRegion } from "./band-region.ts";
import { int64ToFloat32, splitToFloat32 } from "./int64.ts";

/**
 * Decoupling: split the distorted detail bands into the part restored from the
 * reference (r = clamp(t / o, 0, 1) * o, boosted up to the enhancement gain limit where
 * the (h, v) orientation changed by less than 1 degree) and the additive impairment
 * a = t - r. The ratio t / o is a multiplication by a Q30 reciprocal table.
 */

export interface Orientations<T> {
  h: T;
  v: T;
  d: T;
}

/** cos(1 degree)^2 as the float libvmaf compares against. */
export const COS_1DEG_SQ = Math.fround(Math.cos(Math.PI / 180) * Math.cos(Math.PI / 180));
const Q15 = 2 ** -15;
const TWO_M16 = 2 ** -16;
const LIMIT_26 = 2 ** 26;
const INV_4096 = 1 / 4096;
/** INV_POW2[n] = 2^-n for the shifts of ratio32 (no Math.pow in the loop). */
const INV_POW2 = Float64Array.from({ length: 33 }, (_, n) => 2 ** -n);
/** get_best15_from32's shift by the magnitude's leading zeros: 17 - clz, 0 below 2^15. */
const TOP15_SHIFT = Int32Array.from({ length: 33 }, (_, clz) => Math.max(17 - clz, 0));
/** Its rounding term 2^(shift-1) (none for shift 0). */
const TOP15_ROUND = Int32Array.from({ length: 18 }, (_, shift) => (shift > 0 ? 2 ** (shift - 1) : 0));
/** (1 << (14 + shift)) is an int: for shift 17 it is INT_MIN in libvmaf. */
const RATIO_ROUND = Float64Array.from({ length: 18 }, (_, shift) => (shift === 17 ? -2147483648 : 2 ** (14 + shift)));

/** libvmaf's div_lookup: round-toward-zero 2^30 / i for i in [-32768, 32768], index i + 32768. */
export function divisionTable(): Int32Array {
  const table = new Int32Array(65537);
  for (let i = 1; i <= 32768; i++) {
    const reciprocal = Math.trunc(1073741824 / i);
    table[32768 + i] = reciprocal;
    table[32768 - i] = -reciprocal;
  }
  return table;
}

/**
 * Whether (oh, ov) and (th, tv) are less than 1 degree apart:
 * u.v >= 0 and (u.v)^2 >= cos^2(1deg) |u|^2 |v|^2, with each int64 product rounded to
 * float and divided by 4096 in double, as libvmaf does. Exact for products below 2^53.
 */
function angleFlag(otDp: number, oMagSq: number, tMagSq: number): boolean {
  if (otDp < 0) return false;
  const dot = Math.fround(otDp) * INV_4096; // exact, as the division by 4096
  return dot * dot >= COS_1DEG_SQ * (Math.fround(oMagSq) * INV_4096) * (Math.fround(tMagSq) * INV_4096);
}

/**
 * angleFlag for int32 coefficients whose products pass 2^53: each product is split at
 * the first factor's 16th bit, u * s + v * t = X 2^16 + Y with X, Y exact, and the sum is
 * rounded to float exactly once. (An int64 sum of squares wraps only for two INT_MIN.)
 */
function angleFlagSplit(oh: number, ov: number, th: number, tv: number): boolean {
  if ((oh === -2147483648 && ov === -2147483648) || (th === -2147483648 && tv === -2147483648)) return angleFlagWide(oh, ov, th, tv);
  const ohHi = Math.floor(oh * TWO_M16);
  const ohLo = oh - ohHi * 65536;
  const ovHi = Math.floor(ov * TWO_M16);
  const ovLo = ov - ovHi * 65536;
  const thHi = Math.floor(th * TWO_M16);
  const thLo = th - thHi * 65536;
  const tvHi = Math.floor(tv * TWO_M16);
  const tvLo = tv - tvHi * 65536;
  const dot = splitToFloat32(ohHi * th + ovHi * tv, ohLo * th + ovLo * tv) / 4096;
  if (!(dot >= 0)) return false;
  const o = splitToFloat32(ohHi * oh + ovHi * ov, ohLo * oh + ovLo * ov) / 4096;
  const t = splitToFloat32(thHi * th + tvHi * tv, thLo * th + tvLo * tv) / 4096;
  return dot * dot >= COS_1DEG_SQ * o * t;
}

/** libvmaf's 1-degree test for int32 (or int16) coefficients (o_h, o_v) and (t_h, t_v). */
export function orientationMatches(oh: number, ov: number, th: number, tv: number): boolean {
  const small = oh < LIMIT_26 && oh > -LIMIT_26 && ov < LIMIT_26 && ov > -LIMIT_26 && th < LIMIT_26 && th > -LIMIT_26 && tv < LIMIT_26 && tv > -LIMIT_26;
  return small ? angleFlag(oh * th + ov * tv, oh * oh + ov * ov, th * th + tv * tv) : angleFlagSplit(oh, ov, th, tv);
}

/** angleFlag through BigInt, int64 wrap included. */
function angleFlagWide(oh: number, ov: number, th: number, tv: number): boolean {
  const [a, b, c, d] = [BigInt(oh), BigInt(ov), BigInt(th), BigInt(tv)];
  const dot = int64ToFloat32(BigInt.asIntN(64, a * c + b * d)) / 4096;
  const o = int64ToFloat32(BigInt.asIntN(64, a * a + b * b)) / 4096;
  const t = int64ToFloat32(BigInt.asIntN(64, c * c + d * d)) / 4096;
  return dot >= 0 && dot * dot >= COS_1DEG_SQ * o * t;
}

/**
 * libvmaf's div_lookup split at bit 15, div = hi * 2^15 + lo with 0 <= lo < 2^15, so that
 * scale 0's int16 ratios need only int32 products (Math.imul: no doubles, no overflow checks).
 */
export class DivisionTable {
  readonly full = divisionTable();
  readonly hi = this.full.map((d) => d >> 15);
  readonly lo = this.full.map((d) => d & 0x7fff);
}

/**
 * Clamped Q15 ratio t / o for int16 coefficients (scale 0): (div * t + 2^14) >> 15 as
 * hi * t + ((lo * t + 2^14) >> 15), every part below 2^31 in magnitude.
 */
function ratio16(o: number, t: number, divHi: Int32Array, divLo: Int32Array): number {
  // libvmaf gives o = 0 the ratio 1 (32768); the table's 0 gives 0 here, which restores the
  // same 0 (k * o = 0) and no gain applies where o = 0
  const k = Math.imul(divHi[o + 32768]!, t) + ((Math.imul(divLo[o + 32768]!, t) + 16384) >> 15);
  return Math.min(Math.max(k, 0), 32768); // min/max rather than branches: the data decides them at random
}

/**
 * Clamped Q15 ratio for int32 coefficients: |o| >= 2^15 is first rounded to its top 15
 * bits (get_best15_from32). The product is exact except when |o| < 2^15 and |t| >= 2^23,
 * where |t / o| > 2^8 and the clamp gives 32768 or 0 whatever the rounding.
 */
function ratio32(o: number, t: number, div: Int32Array): number {
  // t / o <= 0 clamps to 0 (the rounding term is below the shift's unit, or negative), and
  // o = 0 restores 0 whatever k is (as in ratio16): skip the table and the products
  if (o === 0 || t === 0 || (o ^ t) < 0) return 0;
  const magnitude = Math.abs(o); // abs(INT_MIN) read as uint32 is 2^31, as here
  // table look-ups instead of branches on the magnitude (shift 0 keeps it as it is);
  // the rounded sum stays below 2^32, so >>> shifts it exactly
  const shift = TOP15_SHIFT[Math.clz32(magnitude)]!;
  const top15 = (magnitude + TOP15_ROUND[shift]!) >>> shift;
  // o and t have the same sign: div[-i] * t = div[i] * |t|
  const product = div[top15 + 32768]! * Math.abs(t);
  const k = Math.floor((product + RATIO_ROUND[shift]!) * INV_POW2[15 + shift]!);
  return Math.min(Math.max(k, 0), 32768);
}

/**
 * Restored coefficient: rst = k * o in Q15, then where the angle matched the enhancement
 * gain, MIN(rst * gain, t) for o > 0 and MAX(rst * gain, t) for o < 0, truncated to int.
 */
function restore(o: number, t: number, k: number, angle: boolean, gain: number, rst: number): number {
  if (!angle || k === 0) return rst;
  const boosted = rst * gain;
  return Math.trunc(o > 0 ? Math.min(boosted, t) : o < 0 ? Math.max(boosted, t) : rst);
}

/** Scale 0: int16 bands. */
export function decoupleScale0(
  ref: Orientations<Int16Array>,
  dis: Orientations<Int16Array>,
  restored: Orientations<Int16Array>,
  additive: Orientations<Int16Array>,
  w: number,
  h: number,
  stride: number,
  gain: number,
  div: DivisionTable,
): void {
  const { left, top, right, bottom } = filterRegion(w, h);
  // one call per row: the engine optimises a function called often sooner than one long loop
  for (let i = top; i < bottom; i++) decoupleRow16(ref, dis, restored, additive, i * stride + left, i * stride + right, gain, div);
}

function decoupleRow16(
  ref: Orientations<Int16Array>,
  dis: Orientations<Int16Array>,
  restored: Orientations<Int16Array>,
  additive: Orientations<Int16Array>,
  start: number,
  end: number,
  gain: number,
  div: DivisionTable,
): void {
  // bands in locals: no property loads in the loop
  const { h: refH, v: refV, d: refD } = ref;
  const { h: disH, v: disV, d: disD } = dis;
  const { h: resH, v: resV, d: resD } = restored;
  const { h: addH, v: addV, d: addD } = additive;
  const { hi, lo } = div;
  for (let x = start; x < end; x++) {
    const oh = refH[x]!;
    const ov = refV[x]!;
    const od = refD[x]!;
    const th = disH[x]!;
    const tv = disV[x]!;
    const td = disD[x]!;
    const angle = angleFlag(Math.imul(oh, th) + Math.imul(ov, tv), oh * oh + ov * ov, th * th + tv * tv);
    const kh = ratio16(oh, th, hi, lo);
    const kv = ratio16(ov, tv, hi, lo);
    const kd = ratio16(od, td, hi, lo);
    // k <= 2^15, |o| <= 2^15: int32 products
    const rh = restore(oh, th, kh, angle, gain, (Math.imul(kh, oh) + 16384) >> 15);
    const rv = restore(ov, tv, kv, angle, gain, (Math.imul(kv, ov) + 16384) >> 15);
    const rd = restore(od, td, kd, angle, gain, (Math.imul(kd, od) + 16384) >> 15);
    // int16 stores wrap like C's conversions
    resH[x] = rh;
    resV[x] = rv;
    resD[x] = rd;
    addH[x] = th - rh;
    addV[x] = tv - rv;
    addD[x] = td - rd;
  }
}

/** Scales 1..3: int32 bands. */
export function decoupleInt32(
  ref: Orientations<Int32Array>,
  dis: Orientations<Int32Array>,
  restored: Orientations<Int32Array>,
  additive: Orientations<Int32Array>,
  w: number,
  h: number,
  stride: number,
  gain: number,
  table: DivisionTable,
): void {
  const { left, top, right, bottom } = filterRegion(w, h);
  for (let i = top; i < bottom; i++) decoupleRow32(ref, dis, restored, additive, i * stride + left, i * stride + right, gain, table.full);
}

function decoupleRow32(
  ref: Orientations<Int32Array>,
  dis: Orientations<Int32Array>,
  restored: Orientations<Int32Array>,
  additive: Orientations<Int32Array>,
  start: number,
  end: number,
  gain: number,
  div: Int32Array,
): void {
  const { h: refH, v: refV, d: refD } = ref;
  const { h: disH, v: disV, d: disD } = dis;
  const { h: resH, v: resV, d: resD } = restored;
  const { h: addH, v: addV, d: addD } = additive;
  for (let x = start; x < end; x++) {
    const oh = refH[x]!;
    const ov = refV[x]!;
    const od = refD[x]!;
    const th = disH[x]!;
    const tv = disV[x]!;
    const td = disD[x]!;
    const angle = orientationMatches(oh, ov, th, tv);
    const kh = ratio32(oh, th, div);
    const kv = ratio32(ov, tv, div);
    const kd = ratio32(od, td, div);
    // k <= 2^15 and |o| <= 2^31: the products are exact
    const rh = restore(oh, th, kh, angle, gain, Math.floor((kh * oh + 16384) * Q15));
    const rv = restore(ov, tv, kv, angle, gain, Math.floor((kv * ov + 16384) * Q15));
    const rd = restore(od, td, kd, angle, gain, Math.floor((kd * od + 16384) * Q15));
    resH[x] = rh;
    resV[x] = rv;
    resD[x] = rd;
    addH[x] = th - rh;
    addV[x] = tv - rv;
    addD[x] = td - rd;
  }
}
