import { Uint64Sum } from "@vq/core";
import { fixedLog2 } from "./log2-table.ts";
import { mirrorRow } from "./mirror-pad.ts";
import { VIF_FILTERS, VIF_MAX_HALF } from "./vif-filters.ts";

/** libvmaf's sigma_nsq: the noise variance 2.0 in its 16.16 fixed point. */
const SIGMA_NSQ = 65536 << 1;
/** log2(SIGMA_NSQ) * 2048: subtracted so the denominator is log2(1 + sigma1_sq / sigma_nsq). */
const LOG2_SIGMA_NSQ = 2048 * 17;
/** The epsilon libvmaf adds to sigma1_sq before dividing (65536 * 1.0e-10, in double). */
const GAIN_EPSILON = 65536 * 1.0e-10;
const TWO_31 = 2147483648;
const INVERSE_2_16 = 1 / 65536;
const INVERSE_2_32 = 1 / 4294967296;

/**
 * (x * y + 2^31) >> 32 for x, y below 2^32: the product needs 64 bits, so it is split
 * into 16-bit halves whose partial sums stay below 2^50 (exact in doubles).
 */
export function roundedHighProduct(x: number, y: number): number {
  const xh = x >>> 16;
  const xl = x & 0xffff;
  const yh = y >>> 16;
  const yl = y & 0xffff;
  return xh * yh + Math.floor(((xh * yl + xl * yh) * 65536 + xl * yl + TWO_31) * INVERSE_2_32);
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
 * One scale's VIF numerator and denominator (libvmaf's vif_statistic_8/_16): a separable
 * filter gives the local means, variances and covariance of reference and distorted, in
 * libvmaf's fixed point, and each sample adds a table log2 (or, where the reference is
 * flat, a linear term) to int64 accumulators. Every integer here stays below 2^53, so
 * doubles hold it exactly (README: "How exactness is kept").
 */
export class VifScaleStatistic {
  private readonly rows: FilteredRows;
  private readonly nonLogSum = new Uint64Sum();

  constructor(maxWidth: number, private readonly bitDepth: number, private readonly gainLimit: number, private readonly log2Table: Uint16Array) {
    const row = () => new Float64Array(maxWidth + 2 * VIF_MAX_HALF);
    this.rows = { mu1: row(), mu2: row(), ref: row(), dis: row(), refDis: row() };
  }

  /**
   * Writes scale `scale`'s numerator and denominator, rounded to float as libvmaf stores
   * them, to out[2 * scale] and out[2 * scale + 1]. The planes' row 0 starts at `origin`
   * and their borders are mirrored at least as far as this scale's filter reaches.
   */
  compute(ref: Uint16Array, dis: Uint16Array, origin: number, stride: number, width: number, height: number, scale: number, out: Float32Array): void {
    const filter = VIF_FILTERS[scale]!;
    const taps = filter.length;
    const half = taps >> 1;
    // Scale 0 brings samples of bitDepth bits down to 16-bit means and, above 8 bits, its
    // squares down to 32 bits; later scales take 16-bit means and round off 16 bits.
    const bpc = this.bitDepth;
    const muRound = scale === 0 ? 2 ** (bpc - 1) : 32768;
    const muShift = scale === 0 ? bpc : 16;
    const sqShift = scale === 0 ? (bpc - 8) * 2 : 16;
    const sqRound = sqShift === 0 ? 0 : 2 ** (sqShift - 1);
    const sqScale = 2 ** -sqShift;
    const { mu1: rowMu1, mu2: rowMu2, ref: rowRef, dis: rowDis, refDis: rowRefDis } = this.rows;
    const table = this.log2Table;
    const gainLimit = this.gainLimit;
    const nonLogSum = this.nonLogSum;
    nonLogSum.reset();
    let numLog = 0;
    let denLog = 0;
    let denNonLog = 0;

    for (let i = 0; i < height; i++) {
      // vertical pass: sums below 2^48 (products f * x * x of 16-bit x)
      const top = origin + (i - half) * stride;
      for (let j = 0; j < width; j++) {
        let m1 = 0;
        let m2 = 0;
        let rr = 0;
        let dd = 0;
        let rd = 0;
        for (let k = 0, p = top + j; k < taps; k++, p += stride) {
          const c = filter[k]!;
          const r = ref[p]!;
          const d = dis[p]!;
          const cr = c * r;
          const cd = c * d;
          m1 += cr;
          m2 += cd;
          rr += cr * r;
          dd += cd * d;
          rd += cr * d;
        }
        const q = VIF_MAX_HALF + j;
        // the mean sums stay below 2^32, where >>> is C's uint32 shift
        rowMu1[q] = ((m1 + muRound) >>> muShift) & 0xffff;
        rowMu2[q] = ((m2 + muRound) >>> muShift) & 0xffff;
        rowRef[q] = Math.floor((rr + sqRound) * sqScale) >>> 0;
        rowDis[q] = Math.floor((dd + sqRound) * sqScale) >>> 0;
        rowRefDis[q] = Math.floor((rd + sqRound) * sqScale) >>> 0;
      }
      mirrorRow(rowMu1, VIF_MAX_HALF, width, half);
      mirrorRow(rowMu2, VIF_MAX_HALF, width, half);
      mirrorRow(rowRef, VIF_MAX_HALF, width, half);
      mirrorRow(rowDis, VIF_MAX_HALF, width, half);
      mirrorRow(rowRefDis, VIF_MAX_HALF, width, half);

      // horizontal pass, folded around the centre (the filters are symmetric; pair sums
      // of 32-bit values times 16-bit taps stay below 2^49), and the per-sample terms
      const centreTap = filter[half]!;
      let nonLogRow = 0; // below width * 2^31: exact
      for (let j = 0; j < width; j++) {
        const centre = VIF_MAX_HALF + j;
        let m1 = centreTap * rowMu1[centre]!;
        let m2 = centreTap * rowMu2[centre]!;
        let rr = centreTap * rowRef[centre]!;
        let dd = centreTap * rowDis[centre]!;
        let rd = centreTap * rowRefDis[centre]!;
        for (let k = 1; k <= half; k++) {
          const c = filter[half - k]!;
          const a = centre - k;
          const b = centre + k;
          m1 += c * (rowMu1[a]! + rowMu1[b]!);
          m2 += c * (rowMu2[a]! + rowMu2[b]!);
          rr += c * (rowRef[a]! + rowRef[b]!);
          dd += c * (rowDis[a]! + rowDis[b]!);
          rd += c * (rowRefDis[a]! + rowRefDis[b]!);
        }
        const mu1Sq = roundedHighProduct(m1, m1);
        const mu2Sq = roundedHighProduct(m2, m2);
        const mu1Mu2 = roundedHighProduct(m1, m2);
        const xx = Math.floor((rr + 32768) * INVERSE_2_16) >>> 0;
        const yy = Math.floor((dd + 32768) * INVERSE_2_16) >>> 0;
        const xy = Math.floor((rd + 32768) * INVERSE_2_16) >>> 0;
        // uint32 differences read as int32, like libvmaf's casts
        const sigma1Sq = (xx - mu1Sq) | 0;
        let sigma2Sq = (yy - mu2Sq) | 0;
        const sigma12 = (xy - mu1Mu2) | 0;
        if (sigma2Sq < 0) sigma2Sq = 0;

        if (sigma1Sq >= SIGMA_NSQ) {
          // int32 sum passed as uint32
          denLog += fixedLog2(table, (SIGMA_NSQ + sigma1Sq) >>> 0) - LOG2_SIGMA_NSQ;
          if (sigma12 > 0 && sigma2Sq > 0) {
            let g = sigma12 / (sigma1Sq + GAIN_EPSILON);
            const svSq = sigma2Sq - g * sigma12;
            // double -> int32 truncation, then MAX(sv_sq, 0); svSq < 2^31 always
            const sv = svSq > 0 ? svSq | 0 : 0;
            if (g > gainLimit) g = gainLimit;
            const numer1 = sv + SIGMA_NSQ;
            const numer1Tmp = Math.floor(g * g * sigma1Sq) + numer1;
            numLog += fixedLog2(table, numer1Tmp) - fixedLog2(table, numer1);
          }
        } else {
          nonLogRow += sigma2Sq;
          denNonLog++;
        }
      }
      nonLogSum.add(nonLogRow);
    }

    out[2 * scale] = numLog / 2048.0 + (denNonLog - nonLogSum.toNumber() / 16384.0 / 65025.0);
    out[2 * scale + 1] = denLog / 2048.0 + denNonLog;
  }
}
