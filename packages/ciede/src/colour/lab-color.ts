/**
 * libvmaf's colour conversion for ciede: Y'CbCr (limited range, BT.709 coefficients)
 * → R'G'B' → linear RGB (sRGB transfer) → XYZ (D65) → CIE L*a*b*. Every step is in
 * double, in libvmaf's order; each of the three Lab functions and L, a, b are rounded
 * to float, as libvmaf stores them in floats.
 */

const f32 = Math.fround;

/** The conversion's constants exactly as libvmaf spells them (C folds the divisions in double, as JS does). */
export const LAB_CONSTANTS = {
  rFromV: 1.28033,
  gFromU: -0.21482,
  gFromV: -0.38059,
  bFromU: 2.12798,
  srgbKnee: 10 / 255,
  srgbOffset: 0.055,
  srgbGain: 1.0 / 1.055,
  srgbLinearGain: 1.0 / 12.92,
  /** RGB → XYZ, row-major. */
  xyz: [
    0.4124564390896921, 0.357576077643909, 0.18043748326639894,
    0.21267285140562248, 0.715152155287818, 0.07217499330655958,
    0.019333895582329317, 0.119192025881303, 0.9503040785363677,
  ],
  whiteX: 1.0 / 0.95047,
  whiteZ: 1.0 / 1.08883,
  labEpsilon: 216.0 / 24389.0,
  labKappa: 24389.0 / 27.0,
  oneThird: 1.0 / 3.0,
  one116th: 1.0 / 116.0,
} as const;

const K = LAB_CONSTANTS;
const [M00, M01, M02, M10, M11, M12, M20, M21, M22] = K.xyz;

/** Offsets and gains that normalise samples of one bit depth (limited range). */
export function sampleScaling(bitDepth: number): { lumaOffset: number; lumaGain: number; chromaOffset: number; chromaGain: number } {
  const scale = 2 ** (bitDepth - 8);
  return { lumaOffset: 16 * scale, lumaGain: 1 / (219 * scale), chromaOffset: 128 * scale, chromaGain: 1 / (224 * scale) };
}

/** sRGB decoding of one R'G'B' component (libvmaf's rgb_to_xyz_map). */
function linearize(c: number): number {
  return c > K.srgbKnee ? Math.pow((c + K.srgbOffset) * K.srgbGain, 2.4) : c * K.srgbLinearGain;
}

/** CIE Lab's f(t), rounded to float as libvmaf's xyz_to_lab_map returns it. */
function labF(t: number): number {
  return f32(t > K.labEpsilon ? Math.pow(t, K.oneThird) : (K.labKappa * t + 16.0) * K.one116th);
}

/** Converts Y'CbCr samples of one bit depth to Lab. */
export class LabConverter {
  private readonly lumaOffset: number;
  private readonly lumaGain: number;
  private readonly chromaOffset: number;
  private readonly chromaGain: number;

  constructor(bitDepth: number) {
    ({ lumaOffset: this.lumaOffset, lumaGain: this.lumaGain, chromaOffset: this.chromaOffset, chromaGain: this.chromaGain } = sampleScaling(bitDepth));
  }

  /** Writes L, a, b of the sample triple (y, u, v) to out[at..at+2]. */
  convert(y: number, u: number, v: number, out: Float32Array, at: number): void {
    const yn = (y - this.lumaOffset) * this.lumaGain;
    const un = (u - this.chromaOffset) * this.chromaGain;
    const vn = (v - this.chromaOffset) * this.chromaGain;
    const r = linearize(yn + K.rFromV * vn);
    const g = linearize(yn + K.gFromU * un + K.gFromV * vn);
    const b = linearize(yn + K.bFromU * un);
    const fx = labF((r * M00 + g * M01 + b * M02) * K.whiteX);
    const fy = labF(r * M10 + g * M11 + b * M12);
    const fz = labF((r * M20 + g * M21 + b * M22) * K.whiteZ);
    out[at] = 116.0 * fy - 16.0;
    out[at + 1] = 500.0 * (fx - fy);
    out[at + 2] = 200.0 * (fy - fz);
  }
}
