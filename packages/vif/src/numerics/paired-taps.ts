/** The largest tap a signed 16-bit lane holds. */
const I16_MAX = 32767;

/** One step of a paired filter: taps a and b on samples c + offset and c + offset + 1. */
export interface TapPair {
  readonly offset: number;
  readonly a: number;
  readonly b: number;
}

/**
 * A symmetric filter of 2 * half + 1 non-negative taps as steps of two adjacent taps, each
 * below 2^15, for the WebAssembly kernels' 16-bit dot products (i32x4.dot_i16x8_s, ADR
 * 0040): Σ_k f[k] * x[c - half + k] equals Σ_steps a * x[c + offset] + b * x[c + offset + 1].
 * A tap above 2^15 - 1 (scale 3's 43728) is split over two steps, the last step's b may be
 * 0 (a sample it reads past the filter's end counts nothing).
 */
export function pairedTaps(filter: ArrayLike<number>): TapPair[] {
  const half = filter.length >> 1;
  const rest = Array.from(filter);
  const pairs: TapPair[] = [];
  for (let k = 0; k < rest.length; ) {
    if (rest[k] === 0) {
      k++;
      continue;
    }
    const a = Math.min(rest[k]!, I16_MAX);
    rest[k]! -= a;
    const b = Math.min(rest[k + 1] ?? 0, I16_MAX);
    if (k + 1 < rest.length) rest[k + 1]! -= b;
    pairs.push({ offset: k - half, a, b });
  }
  return pairs;
}
