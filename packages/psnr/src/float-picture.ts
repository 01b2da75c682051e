import type { Plane } from "@vq/core";

/**
 * The factor libvmaf's picture_copy applies to samples: high bit depths are divided
 * down to the 8-bit range (÷4, ÷16, ÷256). A power of two, so multiplying by it gives
 * the same exact float as libvmaf's division.
 */
export function lumaScale(bitDepth: number): number {
  return bitDepth === 8 ? 1 : 1 / 2 ** (bitDepth - 8);
}

/** Where mirrored index `i` of a line of `n` samples reads, as float_ansnr's filters mirror (not quite symmetric: the far edge repeats its last sample). */
export function mirrorIndex(i: number, n: number): number {
  return i < 0 ? -i : i >= n ? 2 * n - i - 1 : i;
}

/**
 * picture_copy of the luma plane (scaled, plus `offset`) into a float image padded by
 * `pad` samples on every side, filled with float_ansnr's mirror rule, so filters run
 * without edge tests. Needs width and height > pad. Every value is an exact float.
 */
export function mirroredLuma(plane: Plane, bitDepth: number, offset: number, pad: number, out: Float32Array): Float32Array {
  const { width, height, stride, data } = plane;
  const scale = lumaScale(bitDepth);
  const pw = width + 2 * pad;
  for (let py = 0; py < height + 2 * pad; py++) {
    const src = mirrorIndex(py - pad, height) * stride;
    const dst = py * pw;
    for (let px = 0; px < pad; px++) out[dst + px] = data[src + mirrorIndex(px - pad, width)]! * scale + offset;
    for (let x = 0; x < width; x++) out[dst + pad + x] = data[src + x]! * scale + offset;
    for (let px = pad + width; px < pw; px++) out[dst + px] = data[src + mirrorIndex(px - pad, width)]! * scale + offset;
  }
  return out;
}
