import type { Plane } from "@vq/core";

/**
 * libvmaf's picture_copy for the luma plane: samples as floats, high bit depths scaled
 * down to the 8-bit range (÷4, ÷16, ÷256: exact in float). `out` is w·h, stride w.
 */
export function lumaToFloat(plane: Plane, bitDepth: number, out: Float32Array): Float32Array {
  const { data, width, height, stride } = plane;
  const inv = lumaScale(bitDepth);
  for (let y = 0; y < height; y++) {
    const from = y * stride;
    const to = y * width;
    for (let x = 0; x < width; x++) out[to + x] = data[from + x]! * inv;
  }
  return out;
}

/** The factor picture_copy's division by 4, 16 or 256 amounts to: a power of two, so multiplying is the same. */
export function lumaScale(bitDepth: number): number {
  return 1 / (bitDepth === 10 ? 4 : bitDepth === 12 ? 16 : bitDepth === 16 ? 256 : 1);
}

/** Bit depths picture_copy converts; libvmaf misreads any other as 8-bit data. */
export const CONVERTED_BIT_DEPTHS = [8, 10, 12, 16] as const;
