import { decimatedSize, mirror } from "./decimation-geometry.ts";

const f32 = Math.fround;

/**
 * MS-SSIM's low-pass before each halving: libvmaf's 9×9 table of the 9/7 biorthogonal
 * wavelet filter. It is applied as a 2-D kernel (81 float products per sample, summed in
 * double); the table is not exactly the outer product of its 1-D taps, so it cannot be
 * split into two passes without changing results.
 */
const LPF_ROWS = [
  [0.000714, -0.00045, -0.00209, 0.007132, 0.016114],
  [-0.00045, 0.000283, 0.001316, -0.00449, -0.010146],
  [-0.00209, 0.001316, 0.006115, -0.020867, -0.047149],
  [0.007132, -0.00449, -0.020867, 0.071207, 0.160885],
  [0.016114, -0.010146, -0.047149, 0.160885, 0.363505],
];
/** The 81 taps, row-major; rows and columns are symmetric about the centre. */
export const LPF_9X9 = new Float32Array(81);
for (let v = 0; v < 9; v++) for (let u = 0; u < 9; u++) LPF_9X9[v * 9 + u] = LPF_ROWS[v < 5 ? v : 8 - v]![u < 5 ? u : 8 - u]!;

export const LPF_RADIUS = 4;

/**
 * Halves a picture like libvmaf's _iqa_decimate(…, 2, lpf): each output sample is the
 * 9×9 filter around source (2x, 2y), mirrored at the borders. Reference and distorted are
 * done together; `dstRef`/`dstCmp` get decimatedSize(w)·decimatedSize(h) samples.
 */
export function waveletDecimate(
  srcRef: Float32Array,
  srcCmp: Float32Array,
  width: number,
  height: number,
  dstRef: Float32Array,
  dstCmp: Float32Array,
): { width: number; height: number } {
  const outW = decimatedSize(width, 2);
  const outH = decimatedSize(height, 2);
  const k = LPF_9X9;
  for (let y = 0; y < outH; y++) {
    const cy = 2 * y;
    const rowsInside = cy - LPF_RADIUS >= 0 && cy + LPF_RADIUS < height;
    for (let x = 0; x < outW; x++) {
      const cx = 2 * x;
      let sumRef = 0;
      let sumCmp = 0;
      if (rowsInside && cx - LPF_RADIUS >= 0 && cx + LPF_RADIUS < width) {
        let i = (cy - LPF_RADIUS) * width + cx - LPF_RADIUS;
        for (let v = 0; v < 9; v++, i += width) {
          // one row of the window, written out: its taps are symmetric (k0 k1 k2 k3 k4 k3 k2 k1 k0)
          const kv = v * 9;
          const k0 = k[kv]!;
          const k1 = k[kv + 1]!;
          const k2 = k[kv + 2]!;
          const k3 = k[kv + 3]!;
          const k4 = k[kv + 4]!;
          sumRef = sumRef + f32(srcRef[i]! * k0) + f32(srcRef[i + 1]! * k1) + f32(srcRef[i + 2]! * k2) + f32(srcRef[i + 3]! * k3) + f32(srcRef[i + 4]! * k4) + f32(srcRef[i + 5]! * k3) + f32(srcRef[i + 6]! * k2) + f32(srcRef[i + 7]! * k1) + f32(srcRef[i + 8]! * k0);
          sumCmp = sumCmp + f32(srcCmp[i]! * k0) + f32(srcCmp[i + 1]! * k1) + f32(srcCmp[i + 2]! * k2) + f32(srcCmp[i + 3]! * k3) + f32(srcCmp[i + 4]! * k4) + f32(srcCmp[i + 5]! * k3) + f32(srcCmp[i + 6]! * k2) + f32(srcCmp[i + 7]! * k1) + f32(srcCmp[i + 8]! * k0);
        }
      } else {
        for (let v = 0; v < 9; v++) {
          const row = mirror(cy + v - LPF_RADIUS, height) * width;
          for (let u = 0; u < 9; u++) {
            const t = k[v * 9 + u]!;
            const i = row + mirror(cx + u - LPF_RADIUS, width);
            sumRef += f32(srcRef[i]! * t);
            sumCmp += f32(srcCmp[i]! * t);
          }
        }
      }
      dstRef[y * outW + x] = sumRef;
      dstCmp[y * outW + x] = sumCmp;
    }
  }
  return { width: outW, height: outH };
}
