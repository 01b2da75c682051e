import { mirrorRow } from "./mirror-pad.ts";
import type { ScalePlanes } from "./vif-workspace.ts";
import { VIF_FILTERS, VIF_MAX_HALF } from "./vif-filters.ts";

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

  /** Reads `from` (scale `scale`, borders mirrored) and writes scale scale+1 into `to`, borders included. */
  run(from: ScalePlanes, to: ScalePlanes, scale: number): void {
    const filter = VIF_FILTERS[scale + 1]!;
    const half = filter.length >> 1;
    const centreTap = filter[half]!;
    // from full-depth samples the vertical pass drops bitDepth bits, from 16-bit means 16;
    // the sums of f * x stay below 2^32, so (sum + round) >> shift is an exact floor
    const round = scale === 0 ? 2 ** (this.bitDepth - 1) : 32768;
    const inverse = scale === 0 ? 2 ** -this.bitDepth : 2 ** -16;
    const { ref, dis, stride, width } = from;
    const { refRow, disRow } = this;
    const outRef = to.ref;
    const outDis = to.dis;

    // both passes are folded around the centre tap (the filters are symmetric)
    for (let r = 0; r < to.height; r++) {
      // vertical pass on row 2r
      const mid = from.origin + 2 * r * stride;
      for (let j = 0; j < width; j++) {
        const centre = mid + j;
        let a = centreTap * ref[centre]!;
        let b = centreTap * dis[centre]!;
        for (let k = 1, up = centre - stride, down = centre + stride; k <= half; k++, up -= stride, down += stride) {
          const c = filter[half - k]!;
          a += c * (ref[up]! + ref[down]!);
          b += c * (dis[up]! + dis[down]!);
        }
        refRow[VIF_MAX_HALF + j] = Math.floor((a + round) * inverse);
        disRow[VIF_MAX_HALF + j] = Math.floor((b + round) * inverse);
      }
      mirrorRow(refRow, VIF_MAX_HALF, width, half);
      mirrorRow(disRow, VIF_MAX_HALF, width, half);

      // horizontal pass on even columns only
      const target = to.origin + r * to.stride;
      for (let c = 0; c < to.width; c++) {
        const centre = VIF_MAX_HALF + 2 * c;
        let a = centreTap * refRow[centre]!;
        let b = centreTap * disRow[centre]!;
        for (let k = 1; k <= half; k++) {
          const f = filter[half - k]!;
          a += f * (refRow[centre - k]! + refRow[centre + k]!);
          b += f * (disRow[centre - k]! + disRow[centre + k]!);
        }
        outRef[target + c] = Math.floor((a + 32768) * (1 / 65536));
        outDis[target + c] = Math.floor((b + 32768) * (1 / 65536));
      }
    }
    to.mirror();
  }
}
