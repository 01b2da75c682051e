/**
 * Barten's contrast sensitivity function as HDR-VDP-2 simplifies it (libvmaf's
 * adm_csf_mode=1). libvmaf evaluates it in a mix of float and double; every float
 * step is rounded here with Math.fround at the same point.
 */

const f = Math.fround;

/** Luminance levels (cd/m²) of HDR-VDP-2's CSF measurements. */
const ANCHORS = [0.002, 0.02, 0.2, 2, 20, 150].map(f);
const PARAMS = [
  [0.0160737, 0.991265, 3.74038, 0.50722, 4.46044],
  [0.383873, 0.800889, 3.54104, 0.682505, 4.94958],
  [0.929301, 0.476505, 4.37453, 0.750315, 5.28678],
  [1.29776, 0.405782, 4.40602, 0.935314, 5.61425],
  [1.49222, 0.334278, 3.79542, 1.07327, 6.4635],
  [1.46213, 0.394533, 2.7755, 1.16577, 7.45665],
].map((row) => row.map(f));
const SA = [30.162, 4.0627, 1.6596, 0.2712].map(f);
const MTF_A = [0.42483859630129, 0.57243510393648, 0.000167576239164937, 0.00255872352306433].map(f);
const MTF_B = [0.028, 0.37, 37, 360].map(f);

/** The luminance level libvmaf evaluates the CSF at (DEFAULT_ADM_CSF_LUM). */
export const CSF_LUMINANCE = 100.0;

function interpolate(leftPosition: number, leftValue: number, rightPosition: number, rightValue: number, position: number): number {
  return f(leftValue + f(f(f(rightValue - leftValue) / f(rightPosition - leftPosition)) * f(position - leftPosition)));
}

function rodConeSensitivity(luminance: number): number {
  const lum = f(luminance);
  return f(SA[0]! * Math.pow(Math.pow(f(SA[1]! / lum), SA[2]!) + 1, -SA[3]!));
}

function modulationTransfer(frequency: number): number {
  let mtf = 0;
  for (let i = 0; i < 4; i++) mtf = f(mtf + MTF_A[i]! * Math.exp(f(-MTF_B[i]! * frequency)));
  return mtf;
}

/** barten_csf(lambda, ...) as a float. */
export function bartenCsf(lambda: number, normViewDist: number, refDisplayHeight: number, luminance: number, scale: number): number {
  const r = f((normViewDist * refDisplayHeight * Math.PI) / 180.0);
  const frequency = f(r / Math.pow(2, lambda + 1));
  const lum = Math.min(Math.max(luminance, ANCHORS[0]!), ANCHORS[5]!);
  let left = 0;
  let right = 0;
  for (let i = 0; i < 5; i++) {
    if (lum >= ANCHORS[i]! && lum <= ANCHORS[i + 1]!) {
      left = i;
      right = i + 1;
      break;
    }
  }
  const leftPosition = f(Math.log10(ANCHORS[left]!));
  const rightPosition = f(Math.log10(ANCHORS[right]!));
  const position = f(Math.log10(lum));
  const p = [1, 2, 3, 4].map((c) => interpolate(leftPosition, PARAMS[left]![c]!, rightPosition, PARAMS[right]![c]!, position));
  const a = f(1.0 + Math.pow(f(p[0]! * frequency), p[1]!));
  const b = f(1.0 / Math.pow(1 - Math.exp(-Math.pow(f(frequency / 7), 2)), p[2]!));
  const csf = f(p[3]! / Math.pow(f(a * b), 0.5));
  return f(f(f(csf * modulationTransfer(frequency)) * rodConeSensitivity(luminance)) * scale);
}
