/**
 * Source rows (or columns) of the four DWT taps for each output sample: output i reads
 * 2i-1 .. 2i+2, mirrored at both edges the way libvmaf's dwt2_src_indices_filt does
 * (index -1 -> 1, index n + k -> n - 1 - k).
 */
export class DwtIndices {
  readonly tap0: Int32Array;
  readonly tap1: Int32Array;
  readonly tap2: Int32Array;
  readonly tap3: Int32Array;

  /** @param capacity the largest output count (half of the largest input length, rounded up) */
  constructor(capacity: number) {
    this.tap0 = new Int32Array(capacity);
    this.tap1 = new Int32Array(capacity);
    this.tap2 = new Int32Array(capacity);
    this.tap3 = new Int32Array(capacity);
  }

  /** Fills the taps for an input of length n (n >= 5, so that (n + 1) / 2 >= 3). */
  fill(n: number): void {
    const half = (n + 1) >> 1;
    const mirror = (k: number) => (k >= n ? 2 * n - k - 1 : k);
    for (let i = 0; i < half; i++) {
      const centre = 2 * i;
      this.tap0[i] = mirror(centre - 1);
      this.tap1[i] = mirror(centre);
      this.tap2[i] = mirror(centre + 1);
      this.tap3[i] = mirror(centre + 2);
    }
    this.tap0[0] = 1; // the top/left edge mirrors -1 to 1
  }
}

/** ceil(log2(n)) for n >= 1, exactly (libvmaf's shift amounts). */
export function ceilLog2(n: number): number {
  return n <= 1 ? 0 : 32 - Math.clz32(n - 1);
}
