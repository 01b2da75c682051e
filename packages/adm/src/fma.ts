/**
 * Fused multiply-add, correctly rounded: JavaScript has no Math.fma, and glibc's powf
 * (the FMA build x86-64 machines select) fuses its polynomial steps. Exact products
 * take the double path; the rest is settled with BigInt integer arithmetic.
 */

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
const SPLITTER = 134217729; // 2^27 + 1, Veltkamp's constant for 53-bit doubles

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

/** Error of a * b as a double product: a * b = p + productError(a, b, p) exactly (Dekker). */
function productError(a: number, b: number, p: number): number {
  const ta = SPLITTER * a;
  const ah = ta - (ta - a);
  const al = a - ah;
  const tb = SPLITTER * b;
  const bh = tb - (tb - b);
  const bl = b - bh;
  return al * bl - (((p - ah * bh) - al * bh) - ah * bl);
}

/** fma(a, b, c) = a * b + c with a single rounding. Finite, moderate operands (no overflow). */
export function fma(a: number, b: number, c: number): number {
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
