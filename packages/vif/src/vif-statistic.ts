import { Uint64Sum } from "@vq/core";
import { mirrorRow } from "./mirror-pad.ts";
import { VIF_FILTERS, VIF_MAX_HALF } from "./vif-filters.ts";
import type { ScalePlanes } from "./vif-workspace.ts";

/** libvmaf's sigma_nsq: the noise variance 2.0 in its 16.16 fixed point. */
const SIGMA_NSQ = 65536 << 1;
/** log2(SIGMA_NSQ) * 2048: subtracted so the denominator is log2(1 + sigma1_sq / sigma_nsq). */
const LOG2_SIGMA_NSQ = 2048 * 17;
/** The epsilon libvmaf adds to sigma1_sq before dividing (65536 * 1.0e-10, in double). */
const GAIN_EPSILON = 65536 * 1.0e-10;
const TWO_31 = 2147483648;
const TWO_32 = 4294967296;
const INVERSE_2_15 = 1 / 32768;
const INVERSE_2_16 = 1 / 65536;
const INVERSE_2_32 = 1 / 4294967296;

/**
 * (x * y + 2^31) >> 32 for x, y below 2^32: the product needs 64 bits, so it is split
 * into 16-bit halves whose partial sums stay below 2^50 (exact in doubles). The hot loop
 * below inlines this for its three products.
 */
export function roundedHighProduct(x: number, y: number): number {
  const xh = x >>> 16;
  const xl = x & 0xffff;
  const yh = y >>> 16;
  const yl = y & 0xffff;
  return xh * yh + Math.floor(((xh * yl + xl * yh) * 65536 + xl * yl + TWO_31) * INVERSE_2_32);
}

/** One row of a scale's vertically filtered statistics, with mirrored ends for the horizontal pass. */
interface FilteredRow {
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
  private readonly row: FilteredRow;
  private readonly filtered: FilteredRow;
  private readonly nonLogSum = new Uint64Sum();
  // the current scale's sums, added to row by row
  private numLog = 0;
  private denLog = 0;
  private denNonLog = 0;

  constructor(maxWidth: number, private readonly bitDepth: number, private readonly gainLimit: number, private readonly log2Table: Uint16Array) {
    const row = () => new Float64Array(maxWidth + 2 * VIF_MAX_HALF);
    this.row = { mu1: row(), mu2: row(), ref: row(), dis: row(), refDis: row() };
    this.filtered = { mu1: row(), mu2: row(), ref: row(), dis: row(), refDis: row() };
  }

  /**
   * Writes scale `scale`'s numerator and denominator, rounded to float as libvmaf stores
   * them, to out[2 * scale] and out[2 * scale + 1]. The planes' borders are mirrored as
   * far as this scale's filter reaches.
   */
  compute(planes: ScalePlanes, scale: number, out: Float32Array): void {
    const filter = VIF_FILTERS[scale]!;
    const half = filter.length >> 1;
    // Scale 0 brings samples of bitDepth bits down to 16-bit means and, above 8 bits, its
    // squares down to 32 bits; later scales take 16-bit means and round off 16 bits.
    const bpc = this.bitDepth;
    const rounding: VerticalRounding = {
      muRound: scale === 0 ? 2 ** (bpc - 1) : 32768,
      muScale: scale === 0 ? 2 ** -bpc : INVERSE_2_16,
      sqRound: scale === 0 ? (bpc === 8 ? 0 : 2 ** ((bpc - 8) * 2 - 1)) : 32768,
      sqScale: scale === 0 ? 2 ** -((bpc - 8) * 2) : INVERSE_2_16,
    };
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
      filterRow(row, width, filter, this.filtered);
      this.accumulateRow(width);
    }

    out[2 * scale] = this.numLog / 2048.0 + (this.denNonLog - this.nonLogSum.toNumber() / 16384.0 / 65025.0);
    out[2 * scale + 1] = this.denLog / 2048.0 + this.denNonLog;
  }

  /** Each sample's log2 or linear term, from one row of filtered statistics. */
  private accumulateRow(width: number): void {
    const { mu1: rowMu1, mu2: rowMu2, ref: rowRef, dis: rowDis, refDis: rowRefDis } = this.filtered;
    const table = this.log2Table;
    const gainLimit = this.gainLimit;
    let numLog = 0;
    let denLog = 0;
    let denNonLog = 0;
    let nonLogRow = 0; // below width * 2^31: exact

    for (let j = 0; j < width; j++) {
      const m1 = rowMu1[j]!;
      const m2 = rowMu2[j]!;
      const rr = rowRef[j]!;
      const dd = rowDis[j]!;
      const rd = rowRefDis[j]!;
      // roundedHighProduct, inlined for mu1², mu2² and mu1 * mu2 (m1, m2 < 2^32), with
      // every product taken in doubles: mu = h * 2^16 + l, and
      // (mu * nu + 2^31) >> 32 = h * h' + floor((h * l' + l * h') * 2^-16 + l * l' * 2^-32 + 1/2)
      // where the floor's argument has at most 49 significant bits (exact)
      const l1 = m1 & 0xffff;
      const h1 = (m1 - l1) * INVERSE_2_16;
      const l2 = m2 & 0xffff;
      const h2 = (m2 - l2) * INVERSE_2_16;
      const mu1Sq = h1 * h1 + Math.floor(h1 * l1 * INVERSE_2_15 + l1 * (l1 * INVERSE_2_32) + 0.5);
      const mu2Sq = h2 * h2 + Math.floor(h2 * l2 * INVERSE_2_15 + l2 * (l2 * INVERSE_2_32) + 0.5);
      const mu1Mu2 = h1 * h2 + Math.floor((h1 * l2 + h2 * l1) * INVERSE_2_16 + l1 * (l2 * INVERSE_2_32) + 0.5);
      // uint32 differences read as int32, like libvmaf's casts; `| 0` of these
      // non-negative doubles below 2^33 is floor modulo 2^32
      const sigma1Sq = ((((rr + 32768) * INVERSE_2_16) | 0) - (mu1Sq | 0)) | 0;
      let sigma2Sq = ((((dd + 32768) * INVERSE_2_16) | 0) - (mu2Sq | 0)) | 0;
      const sigma12 = ((((rd + 32768) * INVERSE_2_16) | 0) - (mu1Mu2 | 0)) | 0;
      if (sigma2Sq < 0) sigma2Sq = 0;

      if (sigma1Sq >= SIGMA_NSQ) {
        // log2_32 of the int32 sum passed as uint32 (below 2^32)
        const x = (SIGMA_NSQ + sigma1Sq) | 0;
        const kx = 16 - Math.clz32(x);
        denLog += table[x >>> kx]! + 2048 * kx - LOG2_SIGMA_NSQ;
        if (sigma12 > 0 && sigma2Sq > 0) {
          let g = sigma12 / (sigma1Sq + GAIN_EPSILON);
          // double -> int32 truncation, then MAX(sv_sq, 0); sv_sq < 2^31 always
          const svSq = sigma2Sq - g * sigma12;
          const sv = svSq > 0 ? svSq | 0 : 0;
          if (g > gainLimit) g = gainLimit;
          const numer1 = sv + SIGMA_NSQ;
          const numer1Tmp = Math.floor(g * g * sigma1Sq) + numer1; // below 2^46
          const k1 = 16 - Math.clz32(numer1);
          let log2Tmp: number;
          if (numer1Tmp < TWO_32) {
            const k = 16 - Math.clz32(numer1Tmp);
            log2Tmp = table[numer1Tmp >>> k]! + 2048 * k;
          } else {
            // log2_64: normalise by the high word
            const k = 48 - Math.clz32(Math.floor(numer1Tmp * INVERSE_2_32));
            log2Tmp = table[Math.floor(numer1Tmp * 2 ** -k)]! + 2048 * k;
          }
          numLog += log2Tmp - (table[numer1 >>> k1]! + 2048 * k1);
        }
      } else {
        nonLogRow += sigma2Sq;
        denNonLog++;
      }
    }

    this.numLog += numLog;
    this.denLog += denLog;
    this.denNonLog += denNonLog;
    this.nonLogSum.add(nonLogRow);
  }
}

/** How the vertical pass rounds its sums to libvmaf's fixed point: floor((sum + round) * scale). */
interface VerticalRounding {
  readonly muRound: number;
  readonly muScale: number;
  readonly sqRound: number;
  readonly sqScale: number;
}

/**
 * The vertical pass for one output row: for each column, the filtered reference and
 * distorted samples and their squares and product, rounded as libvmaf does. The sums of
 * f * x stay below 2^32 and those of f * x * y below 2^48, so they are exact, and the
 * roundings are exact floors (libvmaf's results fit 16 and 32 bits, so its uint32 casts
 * never wrap).
 */
function filterColumns(ref: Float64Array, dis: Float64Array, top: number, stride: number, width: number, filter: Float64Array, rounding: VerticalRounding, row: FilteredRow): void {
  const taps = filter.length;
  const { muRound, muScale, sqRound, sqScale } = rounding;
  const { mu1, mu2, ref: rowRef, dis: rowDis, refDis } = row;
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
    mu1[q] = Math.floor((m1 + muRound) * muScale);
    mu2[q] = Math.floor((m2 + muRound) * muScale);
    rowRef[q] = Math.floor((rr + sqRound) * sqScale);
    rowDis[q] = Math.floor((dd + sqRound) * sqScale);
    refDis[q] = Math.floor((rd + sqRound) * sqScale);
  }
}

/**
 * The horizontal pass over one vertically filtered row (ends mirrored), folded around the
 * centre (the filters are symmetric; pair sums of 32-bit values times 16-bit taps stay
 * below 2^49): the means below 2^32 and the second moments below 2^48, exact.
 */
function filterRow(row: FilteredRow, width: number, filter: Float64Array, out: FilteredRow): void {
  const { mu1: rowMu1, mu2: rowMu2, ref: rowRef, dis: rowDis, refDis: rowRefDis } = row;
  const { mu1: outMu1, mu2: outMu2, ref: outRef, dis: outDis, refDis: outRefDis } = out;
  const half = filter.length >> 1;
  const centreTap = filter[half]!;
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
    outMu1[j] = m1;
    outMu2[j] = m2;
    outRef[j] = rr;
    outDis[j] = dd;
    outRefDis[j] = rd;
  }
}
