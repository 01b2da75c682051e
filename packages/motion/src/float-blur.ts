import type { Plane } from "@vq/core";

// libvmaf's float filters (motion_tools.h), as C floats.
const FILTER_5 = new Float32Array([0.054488685, 0.244201342, 0.402619947, 0.244201342, 0.054488685]);
const FILTER_3 = new Float32Array([0.166378498, 0.667243004, 0.166378498]);
const FILTER_5_NO_OP = new Float32Array([0, 0, 1, 0, 0]);

/** libvmaf's choice: 1 = no blur (still a 5-tap pass), 3 = 3 taps, anything else = the 5-tap Gaussian. */
export function floatMotionFilter(size: number): Float32Array {
  if (size === 1) return FILTER_5_NO_OP;
  if (size === 3) return FILTER_3;
  return FILTER_5;
}

/** libvmaf's picture_copy for float motion: samples scaled to 8-bit units, minus 128 (exact in float). */
export function copyToFloat(plane: Plane, bitDepth: number, out: Float32Array): void {
  const scale = 1 / 2 ** (bitDepth - 8); // libvmaf divides by 4, 16, 256: powers of two, so exact
  const { width, height, stride, data } = plane;
  for (let y = 0; y < height; y++) {
    const row = data.subarray(y * stride, y * stride + width);
    const o = out.subarray(y * width, y * width + width);
    for (let x = 0; x < width; x++) o[x] = row[x]! * scale - 128;
  }
}

/** reflect-101: -1 -> 1, size -> size - 2 */
function mirror(index: number, size: number): number {
  if (index < 0) return -index;
  if (index >= size) return 2 * size - index - 2;
  return index;
}

const fround = Math.fround;

/**
 * libvmaf's convolution_f32 (its AVX and C versions round alike): a vertical pass into
 * `tmp`, then a horizontal one into `dst`, each accumulating filter[k] · sample in float,
 * tap by tap from 0, with mirrored edges. Planes are packed (stride = width).
 */
export function blurFloat(src: Float32Array, dst: Float32Array, tmp: Float32Array, width: number, height: number, filter: Float32Array): void {
  const taps = filter.length;
  const radius = taps >> 1;
  if (taps === 5) {
    const [f0, f1, f2, f3, f4] = filter as unknown as [number, number, number, number, number];
    for (let i = 0; i < height; i++) {
      const r0 = src.subarray(mirror(i - 2, height) * width);
      const r1 = src.subarray(mirror(i - 1, height) * width);
      const r2 = src.subarray(i * width);
      const r3 = src.subarray(mirror(i + 1, height) * width);
      const r4 = src.subarray(mirror(i + 2, height) * width);
      const o = tmp.subarray(i * width, i * width + width);
      for (let j = 0; j < width; j++) {
        let acc = fround(f0 * r0[j]!);
        acc = fround(acc + fround(f1 * r1[j]!));
        acc = fround(acc + fround(f2 * r2[j]!));
        acc = fround(acc + fround(f3 * r3[j]!));
        o[j] = acc + fround(f4 * r4[j]!); // the Float32Array store rounds
      }
    }
    for (let i = 0; i < height; i++) {
      const r = tmp.subarray(i * width, i * width + width);
      const o = dst.subarray(i * width, i * width + width);
      for (let j = 0; j < width; j++) {
        const inside = j >= 2 && j < width - 2;
        const c0 = inside ? j - 2 : mirror(j - 2, width);
        const c1 = inside ? j - 1 : mirror(j - 1, width);
        const c3 = inside ? j + 1 : mirror(j + 1, width);
        const c4 = inside ? j + 2 : mirror(j + 2, width);
        let acc = fround(f0 * r[c0]!);
        acc = fround(acc + fround(f1 * r[c1]!));
        acc = fround(acc + fround(f2 * r[j]!));
        acc = fround(acc + fround(f3 * r[c3]!));
        o[j] = acc + fround(f4 * r[c4]!);
      }
    }
    return;
  }
  // any other odd width (libvmaf's 3-tap filter), tap loop kept generic
  for (let i = 0; i < height; i++) {
    for (let j = 0; j < width; j++) {
      let acc = 0;
      for (let k = 0; k < taps; k++) acc = fround(acc + fround(filter[k]! * src[mirror(i - radius + k, height) * width + j]!));
      tmp[i * width + j] = acc;
    }
  }
  for (let i = 0; i < height; i++) {
    for (let j = 0; j < width; j++) {
      let acc = 0;
      for (let k = 0; k < taps; k++) acc = fround(acc + fround(filter[k]! * tmp[i * width + mirror(j - radius + k, width)]!));
      dst[i * width + j] = acc;
    }
  }
}
