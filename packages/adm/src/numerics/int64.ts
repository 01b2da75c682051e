/**
 * Conversions libvmaf does on int64 values that may exceed 2^53, done exactly with
 * BigInt. Only reached for extreme coefficients; the hot loops prove their values fit.
 */

/** C's (float) of an int64: one rounding to nearest even (not via double). */
export function int64ToFloat32(value: bigint): number {
  const negative = value < 0n;
  let m = negative ? -value : value;
  if (m < 1n << 53n) return Math.fround(negative ? -Number(m) : Number(m));
  const length = m.toString(2).length;
  const drop = BigInt(length - 26);
  // 24 significant bits, a round bit and a sticky bit: Number() is exact, fround rounds once.
  const sticky = (m & ((1n << drop) - 1n)) !== 0n ? 1n : 0n;
  m = (m >> drop) | sticky;
  const v = Number(m) * 2 ** (length - 26);
  return Math.fround(negative ? -v : v);
}

/** C's abs() on an int32: abs(INT_MIN) stays INT_MIN. */
export function absInt32(x: number): number {
  return x === -2147483648 ? x : Math.abs(x);
}

/** Bound below which sums stay exact after adding a rounding term. */
export const EXACT_LIMIT = 2 ** 52;

/**
 * C's (float) of the int64 x * 2^16 + y, one rounding, for integers |x| < 2^47 and
 * |y| < 2^49 given as exact doubles: the sum is formed as an exact double-double
 * (TwoSum) and only a float midpoint needs the low part to decide.
 */
export function splitToFloat32(x: number, y: number): number {
  const a = x * 65536;
  const hi = a + y;
  const back = hi - a;
  const lo = a - (hi - back) + (y - back);
  const r = Math.fround(hi);
  if (r === hi || lo === 0) return r;
  const other = 2 * hi - r; // the float across the midpoint, if hi is one
  if (Math.fround(other) !== other) return r;
  return lo > 0 ? Math.max(r, other) : Math.min(r, other);
}
