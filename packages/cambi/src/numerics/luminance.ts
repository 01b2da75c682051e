/**
 * Luma code → display luminance (cd/m²), as libvmaf's luminance_tools.c computes it:
 * 10-bit limited-range codes normalised to [0, 1], then an EOTF. Double precision with
 * libm's pow, in libvmaf's order of operations (the thresholds built from it are integers,
 * so only a comparison landing within an ulp could tell two pows apart).
 */
export type Eotf = (v: number) => number;

const BT1886_GAMMA = 2.4;
const BT1886_LW = 300.0;
const BT1886_LB = 0.01;

export function bt1886Eotf(v: number): number {
  const lw = Math.pow(BT1886_LW, 1.0 / BT1886_GAMMA);
  const lb = Math.pow(BT1886_LB, 1.0 / BT1886_GAMMA);
  const a = Math.pow(lw - lb, BT1886_GAMMA);
  const b = lb / (lw - lb);
  const x = v + b;
  return a * Math.pow(x > 0 ? x : 0, BT1886_GAMMA);
}

export function pqEotf(v: number): number {
  const m1 = 0.1593017578125;
  const m2 = 78.84375;
  const c1 = 0.8359375;
  const c2 = 18.8515625;
  const c3 = 18.6875;
  const num = Math.pow(v, 1.0 / m2) - c1;
  const clipped = num > 0 ? num : 0;
  const den = c2 - c3 * Math.pow(v, 1.0 / m2);
  return 10000 * Math.pow(clipped / den, 1.0 / m1);
}

export function eotfNamed(name: string): Eotf {
  return name === "pq" ? pqEotf : bt1886Eotf;
}

/** Limited ("TV") range of 10-bit luma: 16·4 to 235·4. */
export const LUMA_FOOT = 64;
export const LUMA_HEAD = 940;

export function luminance(sample: number, eotf: Eotf): number {
  const clipped = sample < LUMA_FOOT ? LUMA_FOOT : sample > LUMA_HEAD ? LUMA_HEAD : sample;
  return eotf((clipped - LUMA_FOOT) / (LUMA_HEAD - LUMA_FOOT));
}
