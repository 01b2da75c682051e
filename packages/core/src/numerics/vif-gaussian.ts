/**
 * libvmaf's Gaussian filters from vif_tools.c, shared by float VIF and SpEED: normalised
 * Gaussians whose length and deviation follow the scale and the kernel scale, computed
 * with libvmaf's mix of float and double steps so every tap is the same float.
 */

const f32 = Math.fround;

/** valid_kernelscales: the only kernel scales libvmaf accepts (as floats). */
const VALID_KERNEL_SCALES = [
  1.0, 1.0 / 2.0, 3.0 / 2.0, 2.0, 2.0 / 3.0, 24.0 / 10.0, 360.0 / 97.0, 4.0 / 3.0, 3.5 / 3.0, 3.75 / 3.0, 4.25 / 3.0, 5.0 / 3.0, 3.0, 1.0 / 2.25, 1.4746, 1.54, 1.6, 1.06667,
  0.711111, 0.74074, 1.111111,
].map(f32);

/** vif_validate_kernelscale: within 1e-3 of a valid scale, compared in float. */
export function isValidKernelScale(kernelScale: number): boolean {
  const k = f32(kernelScale);
  return VALID_KERNEL_SCALES.some((v) => Math.abs(f32(k - v)) < 1e-3);
}

/** vif_get_filter_size: (2^(4 - scale) + 1) * kernelscale rounded up to odd, at least 3. */
export function vifFilterSize(scale: number, kernelScale: number): number {
  const n = (1 << (4 - scale)) + 1;
  const ceiling = Math.ceil(f32(n * f32(kernelScale)));
  return Math.max(ceiling % 2 === 0 ? ceiling + 1 : ceiling, 3);
}

/** get_1d_gaussian_kernel: float taps of get_gaussian_pdf, divided by their float sum. */
export function gaussianTaps(size: number, stdev: number): Float32Array {
  const half = (size - 1) / 2;
  const taps = new Float32Array(size);
  let sum = 0;
  for (let i = 0; i < size; i++) {
    const x = i - half;
    // get_gaussian_pdf: exp and the normaliser in double, each stored as float
    const num = f32(Math.exp(((((-0.5 * x) / stdev) * x) / stdev)));
    const den = f32(1 / (stdev * Math.sqrt(2 * Math.PI)));
    taps[i] = f32(num / den);
    sum = f32(sum + taps[i]!);
  }
  for (let i = 0; i < size; i++) taps[i] = f32(taps[i]! / sum);
  return taps;
}

/** vif_get_filter: the scale's length, deviation size / 5. */
export function vifFilter(scale: number, kernelScale: number): Float32Array {
  const size = vifFilterSize(scale, kernelScale);
  return gaussianTaps(size, f32(size / 5.0));
}
