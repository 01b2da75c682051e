import { Uint64Sum } from "@vq/core";
import { fixedLog2 } from "../numerics/log2-table.ts";
import { mirrorRow } from "../numerics/mirror-pad.ts";
import { createStatisticRows, filterColumns, fold17, type StatisticRows, type VerticalRounding } from "./vif-filter-passes.ts";
import { VIF_FILTERS, VIF_MAX_HALF } from "../numerics/vif-filters.ts";
import type { ScalePlanes } from "./vif-workspace.ts";

/** libvmaf's sigma_nsq: the noise variance 2.0 in its 16.16 fixed point. */
const SIGMA_NSQ = 65536 << 1;
/** log2(SIGMA_NSQ) * 2048: subtracted so the denominator is log2(1 + sigma1_sq / sigma_nsq). */
const LOG2_SIGMA_NSQ = 2048 * 17;
/** The epsilon libvmaf adds to sigma1_sq before dividing (65536 * 1.0e-10, in double). */
const GAIN_EPSILON = 65536 * 1.0e-10;
const TWO_32 = 4294967296;
const INVERSE_2_16 = 1 / 65536;
const INVERSE_2_32 = 1 / 4294967296;

/**
 * (x * y + 2^31) >> 32 for integers x, y below 2^32, without 64-bit integers. Math.imul
 * gives the low word of the product, read as an int32: low = L - 2^32 when L's top bit
 * is set, exactly when the + 2^31 carries into the high word H. So
 * (x * y - low) / 2^32 is the result itself, H or H + 1; the double product is within
 * 2^10 of the exact one and the subtraction adds at most 2^10, so this quotient lands
 * within 2^-21 of the integer, and + 1/2 truncated rounds to it. The hot loop below
 * inlines this (keeping the int32 bits, since it only subtracts the result mod 2^32).
 */
export function roundedHighProduct(x: number, y: number): number {
  return (((x * y - Math.imul(x | 0, y | 0)) * INVERSE_2_32 + 0.5) | 0) >>> 0;
}

/**
 * One scale's VIF numerator and denominator (libvmaf's vif_statistic_8/_16): a separable
 * filter gives the local means, variances and covariance of reference and distorted, in
 * libvmaf's fixed point, and each sample adds a table log2 (or, where the reference is
 * flat, a linear term) to int64 accumulators. Every integer here stays below 2^53, so
 * doubles hold it exactly (README: "How exactness is kept").
 */
export class VifScaleStatistic {
  /** One row of the vertical pass, ends mirrored. */
  private readonly row: StatisticRows;
  /** Per scale, how the vertical pass rounds (scale 0's depends on the bit depth). */
  private readonly roundings: readonly VerticalRounding[];
  private readonly nonLogSum = new Uint64Sum();
  // the current scale's sums, added to row by row
  private numLog = 0;
  private denLog = 0;
  private denNonLog = 0;

  constructor(maxWidth: number, bitDepth: number, private readonly gainLimit: number, private readonly log2Table: Uint16Array) {
    this.row = createStatisticRows(maxWidth);
    // Scale 0 brings samples of bitDepth bits down to 16-bit means and, above 8 bits, its
    // squares down to 32 bits; later scales take 16-bit means and round off 16 bits.
    const sqShift = (bitDepth - 8) * 2;
    const scale0: VerticalRounding = {
      muRound: 2 ** (bitDepth - 1),
      muScale: 2 ** -bitDepth,
      sqRound: sqShift === 0 ? 0 : 2 ** (sqShift - 1),
      sqScale: 2 ** -sqShift,
    };
    const later: VerticalRounding = { muRound: 32768, muScale: INVERSE_2_16, sqRound: 32768, sqScale: INVERSE_2_16 };
    this.roundings = VIF_FILTERS.map((_, scale) => (scale === 0 ? scale0 : later));
  }

  /**
   * Writes scale `scale`'s numerator and denominator, rounded to float as libvmaf stores
   * them, to out[2 * scale] and out[2 * scale + 1]. The planes' borders are mirrored as
   * far as this scale's filter reaches.
   */
  compute(planes: ScalePlanes, scale: number, out: Float32Array): void {
    const filter = VIF_FILTERS[scale]!;
    const half = filter.length >> 1;
    const rounding = this.roundings[scale]!;
    const { width, height, stride } = planes;
    const row = this.row;
    this.numLog = 0;
    this.denLog = 0;
    this.denNonLog = 0;
    this.nonLogSum.reset();

    for (let i = 0; i < height; i++) {
      filterColumns(planes.ref, planes.dis, planes.origin + (i - half) * stride, stride, width, filter, rounding, row);
      mirrorRow(row.mu1, VIF_MAX_HALF, width, half);
      mirrorRow(row.mu2, VIF_MAX_HALF, width, half);
      mirrorRow(row.ref, VIF_MAX_HALF, width, half);
      mirrorRow(row.dis, VIF_MAX_HALF, width, half);
      mirrorRow(row.refDis, VIF_MAX_HALF, width, half);
      this.accumulateRow(width, filter);
    }

    out[2 * scale] = this.numLog / 2048.0 + (this.denNonLog - this.nonLogSum.toNumber() / 16384.0 / 65025.0);
    out[2 * scale + 1] = this.denLog / 2048.0 + this.denNonLog;
  }

  /**
   * The horizontal pass over one vertically filtered row, and each sample's log2 or
   * linear term. The pass is folded around the centre (the filters are symmetric; pair
   * sums of 32-bit values times 16-bit taps stay below 2^49): the means come out below
   * 2^32 and the second moments below 2^48, exact. It runs here rather than in a loop of
   * its own so that its five sums go straight into the terms (about 5 % of a frame).
   */
  private accumulateRow(width: number, filter: Float64Array): void {
    const { mu1: rowMu1, mu2: rowMu2, ref: rowRef, dis: rowDis, refDis: rowRefDis } = this.row;
    const half = filter.length >> 1;
    const centreTap = filter[half]!;
    const table = this.log2Table;
    const gainLimit = this.gainLimit;
    // integer sums, exact: the log2 terms below 2^17 each, nonLogRow below width * 2^31
    let numLog = 0;
    let denLog = 0;
    let logCount = 0;
    let denNonLog = 0;
    let nonLogRow = 0;

    for (let j = 0; j < width; j++) {
      const c = VIF_MAX_HALF + j;
      let m1: number;
      let m2: number;
      let rr: number;
      let dd: number;
      let rd: number;
      if (half === 8) {
        m1 = fold17(rowMu1, c);
        m2 = fold17(rowMu2, c);
        rr = fold17(rowRef, c);
        dd = fold17(rowDis, c);
        rd = fold17(rowRefDis, c);
      } else {
        m1 = centreTap * rowMu1[c]!;
        m2 = centreTap * rowMu2[c]!;
        rr = centreTap * rowRef[c]!;
        dd = centreTap * rowDis[c]!;
        rd = centreTap * rowRefDis[c]!;
        for (let k = 1; k <= half; k++) {
          const f = filter[half - k]!;
          const a = c - k;
          const b = c + k;
          m1 += f * (rowMu1[a]! + rowMu1[b]!);
          m2 += f * (rowMu2[a]! + rowMu2[b]!);
          rr += f * (rowRef[a]! + rowRef[b]!);
          dd += f * (rowDis[a]! + rowDis[b]!);
          rd += f * (rowRefDis[a]! + rowRefDis[b]!);
        }
      }
      // roundedHighProduct, inlined, for mu1², mu2² and mu1 * mu2 (m1, m2 < 2^32), as int32 bits
      const a1 = m1 | 0;
      const a2 = m2 | 0;
      const mu1Sq = ((m1 * m1 - Math.imul(a1, a1)) * INVERSE_2_32 + 0.5) | 0;
      const mu2Sq = ((m2 * m2 - Math.imul(a2, a2)) * INVERSE_2_32 + 0.5) | 0;
      const mu1Mu2 = ((m1 * m2 - Math.imul(a1, a2)) * INVERSE_2_32 + 0.5) | 0;
      // (uint32)((sum + 2^15) >> 16) - mu, read as int32 like libvmaf's casts; `| 0` of the
      // non-negative doubles below 2^33 is their floor modulo 2^32
      const sigma1Sq = ((((rr + 32768) * INVERSE_2_16) | 0) - mu1Sq) | 0;
      let sigma2Sq = ((((dd + 32768) * INVERSE_2_16) | 0) - mu2Sq) | 0;
      const sigma12 = ((((rd + 32768) * INVERSE_2_16) | 0) - mu1Mu2) | 0;
      if (sigma2Sq < 0) sigma2Sq = 0;

      if (sigma1Sq >= SIGMA_NSQ) {
        // log2_32 of the int32 sum passed as uint32; LOG2_SIGMA_NSQ comes off once per row
        const x = (SIGMA_NSQ + sigma1Sq) | 0;
        const kx = 16 - Math.clz32(x);
        denLog += table[x >>> kx]! + (kx << 11);
        logCount++;
        if (sigma12 > 0 && sigma2Sq > 0) {
          const g = sigma12 / (sigma1Sq + GAIN_EPSILON);
          // (int32_t) of sv_sq, then MAX(sv_sq, 0): sv_sq < 2^31 when positive; numer1 as uint32 bits
          const svSq = sigma2Sq - g * sigma12;
          const numer1 = (svSq > 0 ? (svSq | 0) + SIGMA_NSQ : SIGMA_NSQ) | 0;
          const gain = g > gainLimit ? gainLimit : g;
          const numer1Tmp = Math.floor(gain * gain * sigma1Sq) + (numer1 >>> 0); // below 2^46
          const k1 = 16 - Math.clz32(numer1);
          const log2Numer1 = table[numer1 >>> k1]! + (k1 << 11);
          if (numer1Tmp < TWO_32) {
            const t = numer1Tmp | 0;
            const k = 16 - Math.clz32(t);
            numLog += table[t >>> k]! + (k << 11) - log2Numer1;
          } else {
            numLog += fixedLog2(table, numer1Tmp) - log2Numer1;
          }
        }
      } else {
        nonLogRow += sigma2Sq;
        denNonLog++;
      }
    }

    this.numLog += numLog;
    this.denLog += denLog - logCount * LOG2_SIGMA_NSQ;
    this.denNonLog += denNonLog;
    this.nonLogSum.add(nonLogRow);
  }
}
