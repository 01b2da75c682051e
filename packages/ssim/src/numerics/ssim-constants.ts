/**
 * The constants of libvmaf's SSIM (iqa/ssim_tools): the 11-tap Gaussian window (σ = 1.5,
 * as the float taps libvmaf's separable convolution uses) and the stabilisers C1..C3,
 * computed in float like `(K·L)²` with K1 = 0.01f, K2 = 0.03f, L = 255.
 */
const f32 = Math.fround;

export const GAUSSIAN_TAPS = new Float32Array([0.001028, 0.007599, 0.036001, 0.109361, 0.213006, 0.266012, 0.213006, 0.109361, 0.036001, 0.007599, 0.001028]);
/** Window width: each SSIM map is this much minus one smaller than its picture. */
export const WINDOW = GAUSSIAN_TAPS.length;

const K1L = f32(f32(0.01) * 255);
const K2L = f32(f32(0.03) * 255);
export const C1 = f32(K1L * K1L);
export const C2 = f32(K2L * K2L);
export const C3 = f32(C2 / 2);
