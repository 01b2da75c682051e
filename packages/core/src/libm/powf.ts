/**
 * glibc's powf (2.28+, the FMA build x86-64 CPUs with AVX2 run), which libvmaf calls for
 * adm's cube roots (powf(x, 1.0f / 3.0f)) and ciede's R_T. It is not correctly rounded
 * (up to 0.82 ulp), so matching libvmaf bit for bit needs its exact steps: log2 from a
 * 16-entry table and a degree-5 polynomial, exp2 from a 32-entry table and a cubic, in
 * double with fused multiply-adds, then rounded to float.
 *
 * Fast path: the steps without fusing, then a check that the float rounding of the
 * double result cannot depend on its last bits (unfused and fused differ by ~2^-50
 * relative). In the rare other case the steps are redone with the correctly rounded fma.
 */

import { fma } from "./fma.ts";
import { floatIfUnambiguous } from "./float-rounding.ts";

/** 1.0f / 3.0f, the exponent libvmaf's adm passes for cube roots (a float, not 1/3). */
export const ONE_THIRD_F = Math.fround(1 / 3);

const f32 = Math.fround;
const f32Box = new Float32Array(1);
const f32Bits = new Uint32Array(f32Box.buffer);
const f64Box = new Float64Array(1);
const f64Bits = new Uint32Array(f64Box.buffer);

// glibc's __powf_log2_data: log2(x) for x = 2^k·z, z near 1/invc, logc = log2(1/invc).
const LOG2_INVC = [
  1.398907162146528, 1.3403141896637998, 1.286432210124115, 1.2367150214269895,
  1.1906977166711752, 1.1479821020556429, 1.1082251448272158, 1.0711297413057381,
  1.036437278977283, 1.0, 0.9492859795739057, 0.8951049428609004,
  0.8476821620351103, 0.8050314851692001, 0.7664671008843108, 0.731428603316328,
];
const LOG2_LOGC = [
  -0.48430022186289673, -0.42257122959194704, -0.3633754347673556, -0.30651309567405577,
  -0.25180720160537634, -0.19910014943794563, -0.14825100623281615, -0.09913323807318392,
  -0.051632812977629436, 0.0, 0.07508531937943004, 0.15987125980713107,
  0.2384046664317681, 0.31288288605863257, 0.38370422656453185, 0.451211048935815,
];
const A0 = 0.288457581109214, A1 = -0.36092606229713164, A2 = 0.480898481472577, A3 = -0.7213474675006291, A4 = 1.4426950408774342;
// glibc's __exp2f_data: 2^(i/32) as bit patterns minus i << 47 (high and low words).
const EXP2_TAB_HI = new Uint32Array([
  0x3ff00000, 0x3fefd9b0, 0x3fefb558, 0x3fef9301, 0x3fef72b8, 0x3fef5487, 0x3fef387a, 0x3fef1e9d,
  0x3fef06fe, 0x3feef1a7, 0x3feedea6, 0x3feece08, 0x3feebfda, 0x3feeb42b, 0x3feeab07, 0x3feea47e,
  0x3feea09e, 0x3fee9f75, 0x3feea114, 0x3feea589, 0x3feeace5, 0x3feeb737, 0x3feec491, 0x3feed503,
  0x3feee89f, 0x3feeff76, 0x3fef199b, 0x3fef3720, 0x3fef5818, 0x3fef7c97, 0x3fefa4af, 0x3fefd076,
]);
const EXP2_TAB_LO = new Uint32Array([
  0x00000000, 0xd3158574, 0x6cf9890f, 0xd0125b51, 0x3c7d517b, 0x3168b9aa, 0x6e756238, 0xf51fdee1,
  0x0a31b715, 0x373aa9cb, 0x4c123422, 0x6061892d, 0xd5362a27, 0x569d4f82, 0xdd485429, 0xb03a5585,
  0x667f3bcd, 0xe8ec5f74, 0x73eb0187, 0x994cce13, 0x422aa0db, 0xb0cdc5e5, 0x82a3f090, 0xb23e255d,
  0x995ad3ad, 0xf2fb5e47, 0xdd85529c, 0xdcef9069, 0xdcfba487, 0x337b9b5f, 0xa2a490da, 0x5b6e4540,
]);
const C0 = 0.05550361559341535, C1 = 0.2402284522445722, C2 = 0.6931471806916203;
const EXP2_SHIFT = 6755399441055744.0 / 32; // 0x1.8p52 / 32
const OFF = 0x3f330000;
const OVERFLOW_BOUND = 127.99999995700433;
/** Relative bound on the unfused steps' deviation from the fused ones (~2^-50 in fact). */
const UNFUSED_BOUND = 2 ** -44;

/** 2^(k/32) for the k held in the low word of kd + EXP2_SHIFT: glibc's table entry plus k << 47. */
function exp2Scale(kiLo: number): number {
  const i = kiLo & 31;
  f64Bits[0] = EXP2_TAB_LO[i]!;
  f64Bits[1] = (EXP2_TAB_HI[i]! + ((kiLo << 15) >>> 0)) >>> 0;
  return f64Box[0]!;
}

/** log2 of the normalised float bits ix, as glibc computes it, with `fused` choosing fused multiply-adds. */
function log2(ix: number, fused: boolean): number {
  const tmp = (ix - OFF) >>> 0;
  const i = (tmp >>> 19) & 15;
  const top = (tmp & 0xff800000) >>> 0;
  const k = (top | 0) >> 23;
  f32Bits[0] = (ix - top) >>> 0;
  const z = f32Box[0]!;
  const invc = LOG2_INVC[i]!;
  const y0 = LOG2_LOGC[i]! + k;
  if (!fused) {
    const r = z * invc - 1;
    const r2 = r * r;
    return (A0 * r + A1) * (r2 * r2) + ((A2 * r + A3) * r2 + (A4 * r + y0));
  }
  const r = fma(z, invc, -1);
  const r2 = r * r;
  const y = fma(A0, r, A1);
  const p = fma(A2, r, A3);
  let q = fma(A4, r, y0);
  q = fma(p, r2, q);
  return fma(y, r2 * r2, q);
}

/** 2^xd before the final rounding to float, as glibc computes it. */
function exp2(xd: number, fused: boolean): number {
  let kd = xd + EXP2_SHIFT;
  f64Box[0] = kd;
  const kiLo = f64Bits[0]!;
  kd -= EXP2_SHIFT;
  const r = xd - kd;
  const s = exp2Scale(kiLo);
  const r2 = r * r;
  if (!fused) return ((C0 * r + C1) * r2 + (C2 * r + 1)) * s;
  return fma(fma(C0, r, C1), r2, fma(C2, r, 1)) * s;
}

/**
 * powf(x, y) as glibc returns it, for a float x (>= 0, or NaN; negative gives NaN) and
 * a float y > 0 that is not an integer or a small one (glibc's integer-y branches for
 * negative x are not ported). `exactOnly` skips the fast path (tests compare the two).
 */
export function powf(x: number, y: number, exactOnly = false): number {
  f32Box[0] = x;
  let ix = f32Bits[0]!;
  if (((ix - 0x00800000) >>> 0) >= 0x7f800000 - 0x00800000) {
    // zero, subnormal, infinity, NaN or negative, as glibc sorts them
    if (((2 * ix - 1) >>> 0) >= 2 * 0x7f800000 - 1) return f32(x * x);
    if (ix & 0x80000000) return NaN; // negative ** non-integer
    // subnormal: normalise as glibc does
    f32Box[0] = x * 8388608.0;
    ix = ((f32Bits[0]! & 0x7fffffff) - (23 << 23)) >>> 0;
  }
  let ylogx = y * log2(ix, false);
  if (!exactOnly && ylogx < OVERFLOW_BOUND - 1e-6 && ylogx > -150 + 1e-6) {
    const d = exp2(ylogx, false);
    const result = floatIfUnambiguous(d, d * UNFUSED_BOUND);
    if (result === result) return result;
  }
  ylogx = y * log2(ix, true);
  if (ylogx > OVERFLOW_BOUND) return Infinity;
  if (ylogx <= -150) return 0;
  return f32(exp2(ylogx, true));
}
