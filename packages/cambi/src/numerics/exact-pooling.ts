import { topkCount } from "./topk-pooling.ts";

/** Result words per picture and scale that the GPU's c-value and pooling kernels fill. */
export const POOL_WORDS = 8;
/** Fixed-point sums count units of 2^-24 (every non-zero c-value is a multiple). */
const UNIT = 2 ** -24;
/** Below 2^29 (2^53 units) every partial double sum is exact, so libvmaf's order cannot matter. */
const EXACT_UNITS = 2n ** 53n;

const u64 = (lo: number, hi: number): bigint => (BigInt(hi) << 32n) | BigInt(lo);

/** The fixed-point value (units of 2^-24) of a non-zero c-value's float bits. */
function fixedOf(bits: number): bigint {
  const m = (bits & 0x7fffff) | 0x800000;
  return BigInt(m) << BigInt(((bits >>> 23) & 0xff) - 126);
}

/**
 * libvmaf's top-k mean from the GPU's exact sums: all non-zero c-values when at most k
 * are (zeros fill the rest), else the values above the k-th largest, t, plus (k - their
 * count) copies of t. Returns null when a partial sum could be inexact in double (from 2^29,
 * or higher when every value summed is at least t), where libvmaf's double sum depends on
 * its quickselect's order and the caller must replay it.
 */
export function pooledFromWords(words: Uint32Array, at: number, n: number, topk: number): number | null {
  const k = topkCount(topk, n);
  const count = words[at]!;
  let units: bigint;
  let exactBelow = EXACT_UNITS;
  if (count <= k) {
    units = u64(words[at + 1]!, words[at + 2]!);
  } else {
    const above = words[at + 3]!;
    const t = words[at + 6]!;
    units = u64(words[at + 4]!, words[at + 5]!) + BigInt(k - above) * fixedOf(t);
    // Every value summed is at least t, so a multiple of t's last bit (2^(e-126) units): the
    // partial sums stay exact, whatever their order, up to 2^53 of those steps.
    exactBelow = EXACT_UNITS << BigInt(((t >>> 23) & 0xff) - 126);
  }
  if (units >= exactBelow) return null;
  return (Number(units) * UNIT) / k;
}

/** libvmaf's top-k mean from the GPU replay's words (topk-replay.ts): its double sum, in units. */
export function replayedMean(words: Uint32Array, at: number, n: number, topk: number): number {
  // the sum is a double, so its units are an integer Number converts exactly
  return (Number(u64(words[at + 1]!, words[at + 2]!)) * UNIT) / topkCount(topk, n);
}
