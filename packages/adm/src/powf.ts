import { fma } from "@vq/core";

/**
 * glibc's powf (the table-driven algorithm glibc 2.28+ ships, in the FMA build that
 * x86-64 CPUs with AVX2 select at run time). libvmaf's adm takes cube roots with
 * powf(x, 1.0f / 3.0f); that powf is not correctly rounded (up to 0.82 ULP), so a
 * correctly rounded cube root would differ from libvmaf in the last bit now and then.
 * The algorithm below repeats glibc's steps: log2 from a 16-entry table and a degree-5
 * polynomial, exp2 from a 32-entry table and a cubic, in double, rounded to float.
 */

const f32 = new Float32Array(1);
const f32Bits = new Uint32Array(f32.buffer);
const f64 = new Float64Array(1);
const f64Bits = new Uint32Array(f64.buffer);

/** 1.0f / 3.0f, the exponent libvmaf passes (a float, not 1/3). */
export const ONE_THIRD_F = Math.fround(1 / 3);

// log2(x) table: x = 2^k z, z near 1/invc; logc = log2(c).
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
const LOG2_POLY = [0.288457581109214, -0.36092606229713164, 0.480898481472577, -0.7213474675006291, 1.4426950408774342];

// exp2 table: bit patterns (high, low words) of 2^(i/32) minus i << 47.
const EXP2_TAB_HI = new Uint32Array(32);
const EXP2_TAB_LO = new Uint32Array(32);
[
  0x3ff0000000000000n, 0x3fefd9b0d3158574n, 0x3fefb5586cf9890fn, 0x3fef9301d0125b51n, 0x3fef72b83c7d517bn, 0x3fef54873168b9aan,
  0x3fef387a6e756238n, 0x3fef1e9df51fdee1n, 0x3fef06fe0a31b715n, 0x3feef1a7373aa9cbn, 0x3feedea64c123422n, 0x3feece086061892dn,
  0x3feebfdad5362a27n, 0x3feeb42b569d4f82n, 0x3feeab07dd485429n, 0x3feea47eb03a5585n, 0x3feea09e667f3bcdn, 0x3fee9f75e8ec5f74n,
  0x3feea11473eb0187n, 0x3feea589994cce13n, 0x3feeace5422aa0dbn, 0x3feeb737b0cdc5e5n, 0x3feec49182a3f090n, 0x3feed503b23e255dn,
  0x3feee89f995ad3adn, 0x3feeff76f2fb5e47n, 0x3fef199bdd85529cn, 0x3fef3720dcef9069n, 0x3fef5818dcfba487n, 0x3fef7c97337b9b5fn,
  0x3fefa4afa2a490dan, 0x3fefd0765b6e4540n,
].forEach((bits, i) => {
  EXP2_TAB_HI[i] = Number(bits >> 32n);
  EXP2_TAB_LO[i] = Number(bits & 0xffffffffn);
});
const EXP2_POLY = [0.05550361559341535, 0.2402284522445722, 0.6931471806916203];
const EXP2_SHIFT = 6755399441055744.0 / 32;
const OFF = 0x3f330000;
const OVERFLOW_BOUND = 127.99999995700433;

function floatBits(x: number): number {
  f32[0] = x;
  return f32Bits[0]!;
}

function bitsFloat(bits: number): number {
  f32Bits[0] = bits;
  return f32[0]!;
}

/** log2 of the float whose (normalised, possibly negative-exponent) bits are ix. */
function log2Inline(ix: number): number {
  const tmp = (ix - OFF) >>> 0;
  const i = (tmp >>> 19) & 15;
  const top = (tmp & 0xff800000) >>> 0;
  const iz = (ix - top) >>> 0;
  const k = (top | 0) >> 23; // arithmetic shift, as glibc
  const z = bitsFloat(iz);
  const r = fma(z, LOG2_INVC[i]!, -1);
  const y0 = LOG2_LOGC[i]! + k;
  const r2 = r * r;
  const y = fma(LOG2_POLY[0]!, r, LOG2_POLY[1]!);
  const p = fma(LOG2_POLY[2]!, r, LOG2_POLY[3]!);
  const r4 = r2 * r2;
  let q = fma(LOG2_POLY[4]!, r, y0);
  q = fma(p, r2, q);
  return fma(y, r4, q);
}

/** 2^xd rounded to float, for xd in (-150, 128). */
function exp2Inline(xd: number): number {
  let kd = xd + EXP2_SHIFT;
  f64[0] = kd;
  const kiLo = f64Bits[0]!; // the low bits of kd hold k
  kd -= EXP2_SHIFT;
  const r = xd - kd;
  const idx = kiLo & 31;
  // t = tab[k % 32] + (k << 47): only the low 17 bits of k reach the high word.
  f64Bits[0] = EXP2_TAB_LO[idx]!;
  f64Bits[1] = (EXP2_TAB_HI[idx]! + ((kiLo << 15) >>> 0)) >>> 0;
  const s = f64[0]!;
  const z = fma(EXP2_POLY[0]!, r, EXP2_POLY[1]!);
  const r2 = r * r;
  let y = fma(EXP2_POLY[2]!, r, 1);
  y = fma(z, r2, y);
  return Math.fround(y * s);
}

/**
 * powf(x, y) as glibc computes it, for the arguments adm uses: x a float >= 0 (or NaN),
 * y a positive float that is not an integer.
 */
export function powf(x: number, y: number): number {
  let ix = floatBits(x);
  if (((ix - 0x00800000) >>> 0) >= 0x7f800000 - 0x00800000) {
    // zero, subnormal, infinity, NaN or negative
    if (((2 * ix - 1) >>> 0) >= 2 * 0x7f800000 - 1) return Math.fround(x * x);
    if (ix & 0x80000000) return NaN; // negative ** non-integer
    ix = floatBits(x * 8388608.0) & 0x7fffffff;
    ix = (ix - (23 << 23)) >>> 0;
  }
  const ylogx = y * log2Inline(ix);
  if (ylogx > OVERFLOW_BOUND) return Infinity;
  if (ylogx <= -150) return 0;
  return exp2Inline(ylogx);
}
