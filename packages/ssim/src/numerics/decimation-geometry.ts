/**
 * libvmaf's KBND_SYMMETRIC border: index −1 reads 0, index n reads n − 1 (one reflection,
 * which is all it does; callers keep their taps within one picture width of the edge).
 */
export function mirror(i: number, n: number): number {
  return i < 0 ? -1 - i : i >= n ? 2 * n - i - 1 : i;
}

/** Size after libvmaf's _iqa_decimate: w/factor plus one when w is odd (its rule, whatever the factor). */
export function decimatedSize(n: number, factor: number): number {
  return Math.floor(n / factor) + (n & 1);
}
