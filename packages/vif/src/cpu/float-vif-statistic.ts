import { log2fApprox } from "../numerics/float-log2.ts";
import { mirrorRow } from "../numerics/mirror-pad.ts";

const f32 = Math.fround;
/** vif_statistic_s's eps, a float. */
export const FLOAT_VIF_EPS = f32(1.0e-10);
const EPS = FLOAT_VIF_EPS;

/** sigma_max_inv = powf(sigma_nsq, 2) / 255^2, a float. */
export function sigmaMaxInv(sigmaNsq: number): number {
  const nsq = f32(sigmaNsq);
  return f32(f32(nsq * nsq) / (255.0 * 255.0));
}

/** Rows of one scale's vertically filtered statistics, with mirrored ends for the horizontal pass. */
interface FilteredRows {
  readonly mu1: Float64Array;
  readonly mu2: Float64Array;
  readonly ref: Float64Array;
  readonly dis: Float64Array;
  readonly refDis: Float64Array;
}

/**
 * One scale's VIF numerator and denominator as libvmaf's float path computes them
 * (vif_filter1d_s/_sq_s/_xy_s, then vif_statistic_s): every float operation is rounded
 * to float with Math.fround in libvmaf's order (its AVX convolutions add the taps in
 * order from zero, like its scalar ones), so the sums are the same floats.
 */
export class FloatVifScaleStatistic {
  private readonly rows: FilteredRows;
  private readonly gainLimit: number;
  private readonly sigmaMaxInv: number;

  constructor(maxWidth: number, private readonly pad: number, gainLimit: number, private readonly sigmaNsq: number) {
    const row = () => new Float64Array(maxWidth + 2 * pad);
    this.rows = { mu1: row(), mu2: row(), ref: row(), dis: row(), refDis: row() };
    this.gainLimit = f32(gainLimit);
    this.sigmaMaxInv = sigmaMaxInv(sigmaNsq);
  }

  /**
   * Writes the scale's numerator and denominator (floats) to out[2 * scale] and
   * out[2 * scale + 1]. The planes' row 0 starts at `origin`; their rows are mirrored at
   * least as far as the filter reaches.
   */
  compute(ref: Float32Array, dis: Float32Array, origin: number, stride: number, width: number, height: number, filter: Float64Array, scale: number, out: Float64Array): void {
    const taps = filter.length;
    const half = taps >> 1;
    const pad = this.pad;
    const { mu1: rowMu1, mu2: rowMu2, ref: rowRef, dis: rowDis, refDis: rowRefDis } = this.rows;
    const nsq = this.sigmaNsq;
    const gainLimit = this.gainLimit;
    const sigmaMaxInv = this.sigmaMaxInv;
    let accNum = 0;
    let accDen = 0;

    for (let i = 0; i < height; i++) {
      const top = origin + (i - half) * stride;
      for (let j = 0; j < width; j++) {
        let m1 = 0;
        let m2 = 0;
        let rr = 0;
        let dd = 0;
        let rd = 0;
        for (let k = 0, p = top + j; k < taps; k++, p += stride) {
          const c = filter[k]!;
          const a = ref[p]!;
          const b = dis[p]!;
          m1 = f32(m1 + f32(c * a));
          m2 = f32(m2 + f32(c * b));
          rr = f32(rr + f32(c * f32(a * a)));
          dd = f32(dd + f32(c * f32(b * b)));
          rd = f32(rd + f32(c * f32(a * b)));
        }
        const q = pad + j;
        rowMu1[q] = m1;
        rowMu2[q] = m2;
        rowRef[q] = rr;
        rowDis[q] = dd;
        rowRefDis[q] = rd;
      }
      mirrorRow(rowMu1, pad, width, half);
      mirrorRow(rowMu2, pad, width, half);
      mirrorRow(rowRef, pad, width, half);
      mirrorRow(rowDis, pad, width, half);
      mirrorRow(rowRefDis, pad, width, half);

      let rowNum = 0;
      let rowDen = 0;
      for (let j = 0; j < width; j++) {
        let mu1 = 0;
        let mu2 = 0;
        let xx = 0;
        let yy = 0;
        let xy = 0;
        for (let k = 0, q = pad + j - half; k < taps; k++, q++) {
          const c = filter[k]!;
          mu1 = f32(mu1 + f32(c * rowMu1[q]!));
          mu2 = f32(mu2 + f32(c * rowMu2[q]!));
          xx = f32(xx + f32(c * rowRef[q]!));
          yy = f32(yy + f32(c * rowDis[q]!));
          xy = f32(xy + f32(c * rowRefDis[q]!));
        }
        let sigma1Sq = f32(xx - f32(mu1 * mu1));
        let sigma2Sq = f32(yy - f32(mu2 * mu2));
        const sigma12 = f32(xy - f32(mu1 * mu2));
        if (!(sigma1Sq > 0)) sigma1Sq = 0; // MAX(x, 0.0f)
        if (!(sigma2Sq > 0)) sigma2Sq = 0;

        let g = f32(sigma12 / f32(sigma1Sq + EPS));
        let svSq = f32(sigma2Sq - f32(g * sigma12));
        if (sigma1Sq < EPS) {
          g = 0;
          svSq = sigma2Sq;
          sigma1Sq = 0;
        }
        if (sigma2Sq < EPS) {
          g = 0;
          svSq = 0;
        }
        if (g < 0) {
          svSq = sigma2Sq;
          g = 0;
        }
        if (!(svSq > EPS)) svSq = EPS; // MAX(sv_sq, eps)
        if (!(g < gainLimit)) g = gainLimit; // MIN(g, limit)

        // sigma_nsq is a double: these quotients and sums are double, the log's argument a float
        let num = log2fApprox(f32(1 + f32(f32(g * g) * sigma1Sq) / (svSq + nsq)));
        let den = log2fApprox(f32(1 + sigma1Sq / nsq));
        if (sigma12 < 0) num = 0;
        if (sigma1Sq < nsq) {
          num = f32(1 - f32(sigma2Sq * sigmaMaxInv));
          den = 1;
        }
        rowNum = f32(rowNum + num);
        rowDen = f32(rowDen + den);
      }
      accNum = f32(accNum + rowNum);
      accDen = f32(accDen + rowDen);
    }
    out[2 * scale] = accNum;
    out[2 * scale + 1] = accDen;
  }
}
