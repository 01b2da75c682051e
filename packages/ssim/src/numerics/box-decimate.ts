import { decimatedSize, mirror } from "./decimation-geometry.ts";

const f32 = Math.fround;

/**
 * float_ssim's downscaling by `factor` (libvmaf's _iqa_decimate with a factor×factor box
 * of 1/factor² float taps): each output sample filters the source around (x·f, y·f),
 * taps −f/2 … f/2 − (f even), mirrored at the borders; products in float, their sum in
 * double, the result rounded to float.
 */
export function boxDecimate(src: Float32Array, width: number, height: number, factor: number, dst: Float32Array): { width: number; height: number } {
  const outW = decimatedSize(width, factor);
  const outH = decimatedSize(height, factor);
  const tap = f32(1 / (factor * factor));
  const lo = -(factor >> 1);
  const hi = (factor >> 1) - (factor % 2 === 0 ? 1 : 0);
  const taps = hi - lo + 1;
  const cols = new Int32Array(outW * taps);
  for (let x = 0; x < outW; x++) for (let u = lo; u <= hi; u++) cols[x * taps + u - lo] = mirror(x * factor + u, width);
  for (let y = 0; y < outH; y++) {
    for (let x = 0; x < outW; x++) {
      let sum = 0;
      for (let v = lo; v <= hi; v++) {
        const row = mirror(y * factor + v, height) * width;
        for (let t = 0; t < taps; t++) sum += f32(src[row + cols[x * taps + t]!]! * tap);
      }
      dst[y * outW + x] = sum;
    }
  }
  return { width: outW, height: outH };
}
