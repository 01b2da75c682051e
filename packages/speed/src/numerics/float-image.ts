import type { Plane, Samples } from "@vq/core";
import type { PlaneSize } from "./speed-geometry.ts";

/** A plane of floats, rows packed (row y starts at y * width). */
export interface FloatImage extends PlaneSize {
  readonly data: Float32Array;
}

export function allocateImage(size: PlaneSize): FloatImage {
  return { width: size.width, height: size.height, data: new Float32Array(size.width * size.height) };
}

/** picture_copy's divisor: samples above 8 bits are scaled to the 8-bit range. */
export function sampleScale(bitDepth: number): number {
  return bitDepth === 10 ? 4 : bitDepth === 12 ? 16 : bitDepth === 16 ? 256 : 1;
}

/**
 * picture_copy with offset -128: the top-left `out.width` x `out.height` samples of a
 * plane as floats centred on zero (`(float)s / scale - 128`, in float).
 */
export function planeToFloat(plane: Plane, bitDepth: number, out: FloatImage): FloatImage {
  const scale = sampleScale(bitDepth);
  const src = plane.data;
  const dst = out.data;
  for (let y = 0; y < out.height; y++) {
    let i = y * plane.stride;
    let o = y * out.width;
    const end = o + out.width;
    // Dividing by a power of two is exact, so the float sum is the only rounding.
    if (scale === 1) for (; o < end; o++, i++) dst[o] = src[i]! - 128;
    else for (; o < end; o++, i++) dst[o] = src[i]! / scale - 128;
  }
  return out;
}

/** A plane's top-left width x height samples, rows packed (kept for the next frame). */
export function copySamples(plane: Plane, size: PlaneSize, out: Samples): void {
  for (let y = 0; y < size.height; y++) out.set(plane.data.subarray(y * plane.stride, y * plane.stride + size.width), y * size.width);
}

/**
 * subtract_image of two picture_copy pictures, previous minus current: the -128 offsets
 * cancel and (p - c) / 2^k is exact in float, so it is computed from the samples directly.
 */
export function sampleDifference(previous: Samples, current: Plane, bitDepth: number, out: FloatImage): FloatImage {
  const scale = sampleScale(bitDepth);
  const dst = out.data;
  for (let y = 0; y < out.height; y++) {
    let i = y * current.stride;
    let o = y * out.width;
    const end = o + out.width;
    if (scale === 1) for (; o < end; o++, i++) dst[o] = previous[o]! - current.data[i]!;
    else for (; o < end; o++, i++) dst[o] = (previous[o]! - current.data[i]!) / scale;
  }
  return out;
}
