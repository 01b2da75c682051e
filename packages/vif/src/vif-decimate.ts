import { mirrorRow, mirrorRows } from "./mirror-pad.ts";
import type { ScalePlanes } from "./vif-workspace.ts";
import { VIF_FILTER_HALF, VIF_FILTERS, VIF_MAX_HALF } from "./vif-filters.ts";

/**
 * The next scale of the pyramid (libvmaf's subsample_rd_8/_16): blur scale s with
 * scale s+1's filter and keep every other row and column. Only the kept rows and columns
 * are filtered; libvmaf's scalar code filters all and then drops three quarters, its
 * SIMD code does what this does, and both give these samples.
 */
export class VifDecimator {
  private readonly refRow: Float64Array;
  private readonly disRow: Float64Array;

  constructor(maxWidth: number, private readonly bitDepth: number) {
    this.refRow = new Float64Array(maxWidth + 2 * VIF_MAX_HALF);
    this.disRow = new Float64Array(maxWidth + 2 * VIF_MAX_HALF);
  }

  /**
   * Reads `from` (scale `scale`, width x height, borders mirrored) and writes scale
   * scale+1, (width >> 1) x (height >> 1), into `to` at the same origin and stride, with
   * the borders the next scale's statistic reads.
   */
  run(from: ScalePlanes, to: ScalePlanes, origin: number, stride: number, width: number, height: number, scale: number): void {
    const filter = VIF_FILTERS[scale + 1]!;
    const half = filter.length >> 1;
    // from full-depth samples the vertical pass drops bitDepth bits, from 16-bit means 16
    const round = scale === 0 ? 2 ** (this.bitDepth - 1) : 32768;
    const shift = scale === 0 ? this.bitDepth : 16;
    const { ref, dis } = from;
    const refRow = this.refRow;
    const disRow = this.disRow;
    const outWidth = width >> 1;
    const outHeight = height >> 1;

    // both passes are folded around the centre tap (the filters are symmetric)
    const centreTap = filter[half]!;
    for (let r = 0; r < outHeight; r++) {
      // vertical pass on row 2r: sums of f * x below 2^32, where >>> is C's uint32 shift
      const mid = origin + 2 * r * stride;
      for (let j = 0; j < width; j++) {
        const centre = mid + j;
        let a = centreTap * ref[centre]!;
        let b = centreTap * dis[centre]!;
        for (let k = 1, up = centre - stride, down = centre + stride; k <= half; k++, up -= stride, down += stride) {
          const c = filter[half - k]!;
          a += c * (ref[up]! + ref[down]!);
          b += c * (dis[up]! + dis[down]!);
        }
        refRow[VIF_MAX_HALF + j] = ((a + round) >>> shift) & 0xffff;
        disRow[VIF_MAX_HALF + j] = ((b + round) >>> shift) & 0xffff;
      }
      mirrorRow(refRow, VIF_MAX_HALF, width, half);
      mirrorRow(disRow, VIF_MAX_HALF, width, half);

      // horizontal pass on even columns only
      const target = origin + r * stride;
      for (let c = 0; c < outWidth; c++) {
        const centre = VIF_MAX_HALF + 2 * c;
        let a = centreTap * refRow[centre]!;
        let b = centreTap * disRow[centre]!;
        for (let k = 1; k <= half; k++) {
          const f = filter[half - k]!;
          a += f * (refRow[centre - k]! + refRow[centre + k]!);
          b += f * (disRow[centre - k]! + disRow[centre + k]!);
        }
        to.ref[target + c] = ((a + 32768) >>> 16) & 0xffff;
        to.dis[target + c] = ((b + 32768) >>> 16) & 0xffff;
      }
    }
    mirrorRows(to.ref, origin, stride, outWidth, outHeight, VIF_FILTER_HALF[scale + 1]!);
    mirrorRows(to.dis, origin, stride, outWidth, outHeight, VIF_FILTER_HALF[scale + 1]!);
  }
}
