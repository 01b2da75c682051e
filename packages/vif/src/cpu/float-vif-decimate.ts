import { mirrorRow, mirrorRows } from "../numerics/mirror-pad.ts";
import type { FloatScalePlanes } from "./float-vif-workspace.ts";

const f32 = Math.fround;

/**
 * The next scale of float_vif's pyramid: libvmaf blurs the whole picture with the next
 * scale's filter (vif_filter1d_s, float taps added in order) and keeps every other row
 * and column (vif_dec2_s); only the kept samples are computed here.
 */
export class FloatVifDecimator {
  private readonly refRow: Float64Array;
  private readonly disRow: Float64Array;

  constructor(maxWidth: number, private readonly pad: number) {
    this.refRow = new Float64Array(maxWidth + 2 * pad);
    this.disRow = new Float64Array(maxWidth + 2 * pad);
  }

  /**
   * Reads `from` (width x height, rows mirrored as far as `filter` reaches) and writes the
   * (width >> 1) x (height >> 1) next scale into `to`, its rows mirrored by the filter's radius.
   */
  run(from: FloatScalePlanes, to: FloatScalePlanes, origin: number, stride: number, width: number, height: number, filter: Float64Array): void {
    const taps = filter.length;
    const half = taps >> 1;
    const pad = this.pad;
    const { ref, dis } = from;
    const refRow = this.refRow;
    const disRow = this.disRow;
    const outWidth = width >> 1;
    const outHeight = height >> 1;

    for (let r = 0; r < outHeight; r++) {
      const top = origin + (2 * r - half) * stride;
      for (let j = 0; j < width; j++) {
        let a = 0;
        let b = 0;
        for (let k = 0, p = top + j; k < taps; k++, p += stride) {
          const c = filter[k]!;
          a = f32(a + f32(c * ref[p]!));
          b = f32(b + f32(c * dis[p]!));
        }
        refRow[pad + j] = a;
        disRow[pad + j] = b;
      }
      mirrorRow(refRow, pad, width, half);
      mirrorRow(disRow, pad, width, half);

      const target = origin + r * stride;
      for (let c = 0; c < outWidth; c++) {
        let a = 0;
        let b = 0;
        for (let k = 0, q = pad + 2 * c - half; k < taps; k++, q++) {
          const f = filter[k]!;
          a = f32(a + f32(f * refRow[q]!));
          b = f32(b + f32(f * disRow[q]!));
        }
        to.ref[target + c] = a;
        to.dis[target + c] = b;
      }
    }
    mirrorRows(to.ref, origin, stride, outWidth, outHeight, half);
    mirrorRows(to.dis, origin, stride, outWidth, outHeight, half);
  }
}
