/**
 * The Gaussian filters SpEED borrows from libvmaf's vif_tools.c (@vq/core's vif-gaussian):
 * the anti-alias filter applied before decimating by 16 and the local-mean filter of the
 * decimated picture.
 */
import { gaussianTaps, vifFilter, vifFilterSize } from "@vq/core";

const f32 = Math.fround;

/** speed_get_antialias_filter(scale 4): the scale-1 length, with deviation sqrt(4) * size / 5. */
export function antialiasFilter(kernelScale: number): Float32Array {
  const size = vifFilterSize(1, kernelScale);
  return gaussianTaps(size, f32((Math.sqrt(4) * size) / f32(5)));
}

/** vif_get_filter(scale 4): the local-mean filter of the decimated picture, deviation size / 5. */
export function localMeanFilter(kernelScale: number): Float32Array {
  return vifFilter(4, kernelScale);
}
