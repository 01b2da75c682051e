/**
 * Step 1 of est_params: the 25x25 covariance matrix of the 5x5 neighbourhoods of the
 * decimated picture. Entry (a, b) pairs the copies of the picture shifted by
 * neighbourhood positions a and b; means are float sums, covariances double sums
 * rounded to float, as in libvmaf.
 */
import { SPEED_BLOCK, SPEED_BLOCK_ELEMENTS, type SpeedGeometry } from "./speed-geometry.ts";

const f32 = Math.fround;

export class CovarianceEstimator {
  readonly means = new Float32Array(SPEED_BLOCK_ELEMENTS);
  /** The 25 shifted copies minus their means, in double, one after another. */
  private readonly centred: Float64Array;
  private readonly n: number;

  constructor(private readonly geometry: SpeedGeometry) {
    this.n = geometry.sub.width * geometry.sub.height;
    this.centred = new Float64Array(SPEED_BLOCK_ELEMENTS * this.n);
  }

  /** data: the decimated picture (row stride = decimated width); cov: 625 floats, row-major. */
  run(data: Float32Array, cov: Float32Array): void {
    const { sub, decimated } = this.geometry;
    const stride = decimated.width;
    const count = f32(this.n);
    for (let k = 0; k < SPEED_BLOCK_ELEMENTS; k++) {
      const r = Math.floor(k / SPEED_BLOCK);
      const c = k % SPEED_BLOCK;
      let sum = 0;
      for (let i = 0; i < sub.height; i++) {
        let p = (r + i) * stride + c;
        const end = p + sub.width;
        for (; p < end; p++) sum = f32(sum + data[p]!);
      }
      const mean = f32(sum / count);
      this.means[k] = mean;
      let o = k * this.n;
      for (let i = 0; i < sub.height; i++) {
        let p = (r + i) * stride + c;
        const end = p + sub.width;
        for (; p < end; p++) this.centred[o++] = data[p]! - mean;
      }
    }
    for (let a = 0; a < SPEED_BLOCK_ELEMENTS; a++) {
      for (let b = 0; b <= a; b++) {
        const v = f32(this.crossSum(a, b) / this.n);
        cov[a * SPEED_BLOCK_ELEMENTS + b] = v;
        cov[b * SPEED_BLOCK_ELEMENTS + a] = v;
      }
    }
  }

  /**
   * compute_cov_kernel as libvmaf's AVX-512 kernel (which made the golden data) orders it:
   * per row, 16 columns at a time into 16 lanes, then 8 into the first 8, then the rest
   * into a scalar; lanes reduced as GCC's _mm512_reduce_add_pd does. The kernel fuses
   * each multiply-add; here products are rounded first, a difference that vanishes when
   * the sum is rounded to float (no golden value differs).
   */
  private crossSum(a: number, b: number): number {
    const x = this.centred;
    const { width, height } = this.geometry.sub;
    let l0 = 0, l1 = 0, l2 = 0, l3 = 0, l4 = 0, l5 = 0, l6 = 0, l7 = 0;
    let l8 = 0, l9 = 0, l10 = 0, l11 = 0, l12 = 0, l13 = 0, l14 = 0, l15 = 0;
    let tail = 0;
    for (let r = 0; r < height; r++) {
      let i = a * this.n + r * width;
      let j = b * this.n + r * width;
      const end = i + width;
      for (; i + 15 < end; i += 16, j += 16) {
        l0 += x[i]! * x[j]!;
        l1 += x[i + 1]! * x[j + 1]!;
        l2 += x[i + 2]! * x[j + 2]!;
        l3 += x[i + 3]! * x[j + 3]!;
        l4 += x[i + 4]! * x[j + 4]!;
        l5 += x[i + 5]! * x[j + 5]!;
        l6 += x[i + 6]! * x[j + 6]!;
        l7 += x[i + 7]! * x[j + 7]!;
        l8 += x[i + 8]! * x[j + 8]!;
        l9 += x[i + 9]! * x[j + 9]!;
        l10 += x[i + 10]! * x[j + 10]!;
        l11 += x[i + 11]! * x[j + 11]!;
        l12 += x[i + 12]! * x[j + 12]!;
        l13 += x[i + 13]! * x[j + 13]!;
        l14 += x[i + 14]! * x[j + 14]!;
        l15 += x[i + 15]! * x[j + 15]!;
      }
      for (; i + 7 < end; i += 8, j += 8) {
        l0 += x[i]! * x[j]!;
        l1 += x[i + 1]! * x[j + 1]!;
        l2 += x[i + 2]! * x[j + 2]!;
        l3 += x[i + 3]! * x[j + 3]!;
        l4 += x[i + 4]! * x[j + 4]!;
        l5 += x[i + 5]! * x[j + 5]!;
        l6 += x[i + 6]! * x[j + 6]!;
        l7 += x[i + 7]! * x[j + 7]!;
      }
      for (; i < end; i++, j++) tail += x[i]! * x[j]!;
    }
    // acc0 + acc1, then halves: 256-bit, 128-bit, the last pair
    const s0 = l0 + l8, s1 = l1 + l9, s2 = l2 + l10, s3 = l3 + l11;
    const s4 = l4 + l12, s5 = l5 + l13, s6 = l6 + l14, s7 = l7 + l15;
    const t0 = s4 + s0, t1 = s5 + s1, t2 = s6 + s2, t3 = s7 + s3;
    return t2 + t0 + (t3 + t1) + tail;
  }
}
