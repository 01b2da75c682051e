/**
 * libvmaf's fixed-point log2: a table of round(log2f(i) * 2048) for 16-bit mantissas
 * i in [32767, 65535], and a lookup that normalises any integer to such a mantissa.
 */

const TWO_32 = 4294967296;

/** 2^-k for the normalising shifts of values up to 2^53. */
const INVERSE_POW2 = Float64Array.from({ length: 64 }, (_, k) => 2 ** -k);

/**
 * libvmaf's log_generate: the float log2 (glibc's log2f is correctly rounded on these
 * integers; checked against it for every entry) scaled by 2048 and rounded half away
 * from zero (C round; the values are positive so Math.round agrees).
 */
export function createLog2Table(): Uint16Array {
  const table = new Uint16Array(65537);
  for (let i = 32767; i < 65536; i++) table[i] = Math.round(Math.fround(Math.log2(i)) * 2048);
  return table;
}

/**
 * log2(x) * 2048 from the top 16 bits of x, as libvmaf's log2_32 and log2_64 compute it
 * (both shift x right by msb(x) - 15 and add 2048 per bit dropped). x is an integer in
 * [2^16, 2^53); vif only passes values of at least 2^17.
 */
export function fixedLog2(table: Uint16Array, x: number): number {
  if (x < TWO_32) {
    const k = 16 - Math.clz32(x);
    return table[x >>> k]! + 2048 * k;
  }
  const k = 48 - Math.clz32(Math.floor(x / TWO_32));
  return table[Math.floor(x * INVERSE_POW2[k]!)]! + 2048 * k;
}
