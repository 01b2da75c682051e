/**
 * libvmaf sums in uint64_t/int64_t where JavaScript numbers are exact only to 2^53.
 * These helpers keep such sums exact: an accumulator with a high and a low part, and
 * libvmaf's conversion of the final integer to double (round to nearest, ties to even).
 */

const TWO_32 = 4294967296;

/** An exact unsigned 64-bit sum of non-negative integers below 2^53 each. */
export class Uint64Sum {
  /** Multiples of 2^32. */
  hi = 0;
  /** Below 2^32 after each add. */
  lo = 0;

  add(v: number): void {
    const lo = this.lo + v; // < 2^53 + 2^32: exact
    const carry = Math.floor(lo / TWO_32);
    this.lo = lo - carry * TWO_32;
    this.hi = (this.hi + carry) % TWO_32; // uint64_t wraps
  }

  /** Adds a value given as two 32-bit halves (what GPU kernels read back). */
  addParts(hi: number, lo: number): void {
    this.add(lo);
    this.hi = (this.hi + hi) % TWO_32;
  }

  reset(): void {
    this.hi = 0;
    this.lo = 0;
  }

  toBigInt(): bigint {
    return (BigInt(this.hi) << 32n) | BigInt(this.lo);
  }

  /** `(double) sum` in C: correctly rounded. */
  toNumber(): number {
    if (this.hi < 2097152) return this.hi * TWO_32 + this.lo; // below 2^53: exact
    return Number(this.toBigInt());
  }
}

/** `(double) x` for a uint64 given as halves. */
export function uint64ToNumber(hi: number, lo: number): number {
  if (hi < 2097152) return hi * TWO_32 + lo;
  return Number((BigInt(hi) << 32n) | BigInt(lo));
}
