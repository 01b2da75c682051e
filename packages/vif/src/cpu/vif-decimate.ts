import { mirrorRow } from "../numerics/mirror-pad.ts";
import type { ScalePlanes } from "./vif-workspace.ts";
import { VIF_FILTERS, VIF_MAX_HALF } from "../numerics/vif-filters.ts";

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
    // the sums of f * x stay below 2^32, so (sum + round) * 2^-shift is exact and its
    // truncation (`| 0`, the results being below 2^16) is libvmaf's shift
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
      // two columns per step (the loop's loads and bounds checks, not its arithmetic,
      // limit it); an odd width's last step also filters the column after the last,
      // which is the next row's first (or padding) and is overwritten by the mirroring
      for (let j = 0; j < width; j += 2) {
        const centre = mid + j;
        let a0 = centreTap * ref[centre]!;
        let a1 = centreTap * ref[centre + 1]!;
        let b0 = centreTap * dis[centre]!;
        let b1 = centreTap * dis[centre + 1]!;
        for (let k = 1, up = centre - stride, down = centre + stride; k <= half; k++, up -= stride, down += stride) {
          const c = filter[half - k]!;
          a0 += c * (ref[up]! + ref[down]!);
          a1 += c * (ref[up + 1]! + ref[down + 1]!);
          b0 += c * (dis[up]! + dis[down]!);
          b1 += c * (dis[up + 1]! + dis[down + 1]!);
        }
        refRow[VIF_MAX_HALF + j] = ((a0 + round) * inverse) | 0;
        refRow[VIF_MAX_HALF + j + 1] = ((a1 + round) * inverse) | 0;
        disRow[VIF_MAX_HALF + j] = ((b0 + round) * inverse) | 0;
        disRow[VIF_MAX_HALF + j + 1] = ((b1 + round) * inverse) | 0;
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
        outRef[target + c] = ((a + 32768) * (1 / 65536)) | 0;
        outDis[target + c] = ((b + 32768) * (1 / 65536)) | 0;
      }
    }
    to.mirror();
  }
}
