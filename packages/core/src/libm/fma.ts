/**
 * Fused multiply-add, correctly rounded: JavaScript has no Math.fma, and glibc's powf
 * (the FMA build x86-64 machines select) fuses its polynomial steps. Error-free
 * transformations give a·b + c as z plus a small remainder; z is the answer unless the
 * remainder may reach half an ulp of z, which is rare, and then BigInt integer arithmetic
 * settles it (it took ~6 µs a call, 0.8 ms of host time per frame of GPU ADM scores).
 */

import { productError } from "./exact-product.ts";

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);

/** x = mantissa * 2^exponent exactly (finite x). */
function decompose(x: number): { mantissa: bigint; exponent: number } {
  f64[0] = x;
  const lo = u32[0]!;
  const hi = u32[1]!;
  const biased = (hi >>> 20) & 0x7ff;
  let mantissa = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let exponent = -1074;
  if (biased !== 0) {
    mantissa |= 1n << 52n;
    exponent = biased - 1075;
  }
  return { mantissa: hi >>> 31 ? -mantissa : mantissa, exponent };
}

function bitLength(m: bigint): number {
  const hex = m.toString(16);
  return (hex.length - 1) * 4 + 32 - Math.clz32(parseInt(hex[0]!, 16));
}

/** Round m * 2^exponent (m an integer) to the nearest double, ties to even. */
function roundToDouble(m: bigint, exponent: number): number {
  if (m === 0n) return 0;
  const negative = m < 0n;
  let magnitude = negative ? -m : m;
  const length = bitLength(magnitude);
  if (length > 55) {
    // Keep 53 bits, a round bit and a sticky bit so Number() rounds like the hardware.
    const drop = BigInt(length - 55);
    const sticky = (magnitude & ((1n << drop) - 1n)) !== 0n ? 1n : 0n;
    magnitude = (magnitude >> drop) | sticky;
    exponent += length - 55;
  }
  const v = Number(magnitude) * 2 ** exponent;
  return negative ? -v : v;
}

/** s = a + b rounded, and its exact error: a + b = s + twoSumError(a, b, s) (Knuth). */
function twoSumError(a: number, b: number, s: number): number {
  const bb = s - a;
  return a - (s - bb) + (b - bb);
}

/** Half the smaller gap from z to its neighbours (z finite, not 0). */
function halfGap(z: number): number {
  f64[0] = z;
  const hi = u32[1]!;
  const exponent = (hi >>> 20) & 0x7ff;
  // a power of two has its lower neighbour twice as close as its upper one
  const powerOfTwo = (hi & 0xfffff) === 0 && u32[0] === 0;
  return 2 ** (Math.max(exponent, 1) - 1075 - (powerOfTwo && exponent > 1 ? 1 : 0)) / 2;
}

/** fma(a, b, c) = a * b + c with a single rounding. Finite, moderate operands (no overflow). */
export function fma(a: number, b: number, c: number): number {
  const p = a * b;
  const pe = productError(a, b, p);
  if (pe === 0) return p + c;
  // a·b + c = p + pe + c = s1 + (e1 + pe) = s1 + s2 + e2 = z + e3 + e2, all exact
  const s1 = p + c;
  const e1 = twoSumError(p, c, s1);
  const s2 = e1 + pe;
  const e2 = twoSumError(e1, pe, s2);
  const z = s1 + s2;
  const e3 = twoSumError(s1, s2, z);
  // z is the rounding of z + e3 + e2 when that remainder is surely below half the gap
  if (z !== 0 && (Math.abs(e3) + Math.abs(e2)) * (1 + 2 ** -40) < halfGap(z)) return z;
  return fmaExact(a, b, c);
}

/** fma by BigInt integer arithmetic: the exact a·b + c, rounded once. */
export function fmaExact(a: number, b: number, c: number): number {
  const p = a * b;
  if (productError(a, b, p) === 0) return p + c;
  const x = decompose(a);
  const y = decompose(b);
  const z = decompose(c);
  const pm = x.mantissa * y.mantissa;
  const pe = x.exponent + y.exponent;
  if (z.mantissa === 0n) return roundToDouble(pm, pe);
  const e = Math.min(pe, z.exponent);
  const sum = (pm << BigInt(pe - e)) + (z.mantissa << BigInt(z.exponent - e));
  return roundToDouble(sum, e);
}
