import { VIF_MAX_HALF } from "../numerics/vif-filters.ts";

/**
 * The five local statistics of one row after the vertical pass: the filtered reference
 * and distorted samples (mu1, mu2), their squares and their product. Sample j is at
 * VIF_MAX_HALF + j, leaving room at each end for the mirrored borders the horizontal
 * pass reads.
 */
export interface StatisticRows {
  readonly mu1: Float64Array;
  readonly mu2: Float64Array;
  readonly ref: Float64Array;
  readonly dis: Float64Array;
  readonly refDis: Float64Array;
}

export function createStatisticRows(maxWidth: number): StatisticRows {
  const row = () => new Float64Array(maxWidth + 2 * VIF_MAX_HALF);
  return { mu1: row(), mu2: row(), ref: row(), dis: row(), refDis: row() };
}

/** How the vertical pass rounds its sums to libvmaf's fixed point: floor((sum + round) * scale). */
export interface VerticalRounding {
  readonly muRound: number;
  readonly muScale: number;
  readonly sqRound: number;
  readonly sqScale: number;
}

/**
 * The vertical pass for one output row: for each column, the filtered reference and
 * distorted samples and their squares and product, rounded as libvmaf does. The sums of
 * f * x stay below 2^32 and those of f * x * y below 2^48, so they are exact in doubles
 * (in any order), and the roundings are exact floors (libvmaf's results fit 16 and 32
 * bits, so its uint32 casts never wrap). The five statistics share each sample's two
 * loads; this loop is bound by instruction count, and neither integer arithmetic (one
 * multiplier port), unrolling nor two rows or columns per step made it faster.
 */
export function filterColumns(ref: Float64Array, dis: Float64Array, top: number, stride: number, width: number, filter: Float64Array, rounding: VerticalRounding, out: StatisticRows): void {
  const taps = filter.length;
  const { muRound, muScale, sqRound, sqScale } = rounding;
  const { mu1, mu2, ref: outRef, dis: outDis, refDis: outRefDis } = out;
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
    // the means are below 2^16: `| 0` truncates (floors) them in one conversion
    mu1[q] = ((m1 + muRound) * muScale) | 0;
    mu2[q] = ((m2 + muRound) * muScale) | 0;
    outRef[q] = Math.floor((rr + sqRound) * sqScale);
    outDis[q] = Math.floor((dd + sqRound) * sqScale);
    outRefDis[q] = Math.floor((rd + sqRound) * sqScale);
  }
}

/**
 * Scale 0's horizontal pass (most of vif's work) for one statistic at one sample:
 * VIF_FILTERS[0] at x[c], folded around the centre, with the taps written out. As
 * constants at constant offsets JavaScriptCore checks a row's bounds once per sample
 * instead of once per tap and drops the tap loads and loop steps (about 6 % of a frame).
 * vif-filter-passes.test.ts checks it against VIF_FILTERS[0].
 */
export function fold17(x: Float64Array, c: number): number {
  return (
    7784 * x[c]! +
    7455 * (x[c - 1]! + x[c + 1]!) +
    6547 * (x[c - 2]! + x[c + 2]!) +
    5274 * (x[c - 3]! + x[c + 3]!) +
    3896 * (x[c - 4]! + x[c + 4]!) +
    2640 * (x[c - 5]! + x[c + 5]!) +
    1640 * (x[c - 6]! + x[c + 6]!) +
    935 * (x[c - 7]! + x[c + 7]!) +
    489 * (x[c - 8]! + x[c + 8]!)
  );
}
