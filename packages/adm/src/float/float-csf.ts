import { bartenCsf, CSF_LUMINANCE } from "../numerics/barten-csf.ts";
import { filterRegion, scoreRegion } from "../numerics/band-region.ts";
import { csfFactors, CSF_WATSON97 } from "../numerics/csf.ts";
import type { Orientations } from "../numerics/decouple.ts";
import { powf } from "@vq/core/libm";

/**
 * float_adm's CSF weights (Watson 1997, Barten, or ADM's native CSF: float_adm's mode
 * 2, unlike the integer adm's), the weighted masker bands (csf, |csf| / 30) and the
 * scale's denominator, all in float as adm_tools.c computes them.
 */

const f = Math.fround;

export interface FloatCsfSettings {
  mode: number;
  normViewDist: number;
  refDisplayHeight: number;
  csfScale: number;
  csfDiagScale: number;
  /** adm_f1sN / adm_f2sN: explicit weights per scale (negative = computed) */
  factor1: readonly number[];
  factor2: readonly number[];
}

/** adm_native_csf: the CSF of the DLM paper (Li et al.), theta 0 or 45 degrees. */
function nativeCsf(lambda: number, normViewDist: number, refDisplayHeight: number, theta: number): number {
  const r = f((normViewDist * refDisplayHeight * Math.PI) / 180.0);
  let frequency = f(r / Math.pow(2, lambda + 1));
  if (theta === 45) frequency = f(frequency / 0.7); // the oblique effect
  return f((0.31 + 0.69 * frequency) * Math.exp(-0.29 * frequency));
}

/** [h/v, diagonal] float weights of one scale. */
export function floatCsfFactors(scale: number, s: FloatCsfSettings): [number, number] {
  let factors: [number, number];
  if (s.mode === 1) {
    factors = [
      bartenCsf(scale, s.normViewDist, s.refDisplayHeight, CSF_LUMINANCE, s.csfScale),
      bartenCsf(scale, s.normViewDist, s.refDisplayHeight, CSF_LUMINANCE, s.csfDiagScale),
    ];
  } else if (s.mode === 2) {
    factors = [nativeCsf(scale, s.normViewDist, s.refDisplayHeight, 0), nativeCsf(scale, s.normViewDist, s.refDisplayHeight, 45)];
  } else {
    factors = csfFactors(scale, { ...s, mode: CSF_WATSON97 });
  }
  if (s.factor1[scale]! >= 0) factors[0] = f(s.factor1[scale]!);
  if (s.factor2[scale]! >= 0) factors[1] = f(s.factor2[scale]!);
  return factors;
}

const ONE_BY_30 = 0.0333333351; // FLOAT_ONE_BY_30, a double literal in libvmaf

/** csf = w * band, flt = |csf| / 30 over the filter region (adm_csf_s). */
export function floatCsf(
  src: Orientations<Float32Array>,
  csf: Orientations<Float32Array>,
  flt: Orientations<Float32Array>,
  weights: readonly number[],
  w: number,
  h: number,
  stride: number,
): void {
  const { left, top, right, bottom } = filterRegion(w, h);
  const bands = [
    [src.h, csf.h, flt.h],
    [src.v, csf.v, flt.v],
    [src.d, csf.d, flt.d],
  ] as const;
  for (let theta = 0; theta < 3; theta++) {
    const [s, c, fl] = bands[theta]!;
    const weight = weights[theta]!;
    for (let i = top; i < bottom; i++) {
      for (let x = i * stride + left, end = i * stride + right; x < end; x++) {
        const value = f(weight * s[x]!);
        c[x] = value;
        fl[x] = ONE_BY_30 * Math.abs(value); // double product, float store
      }
    }
  }
}

/** powf(w * h * weight, 1.0f / p): the noise floor of one orientation. */
export function noiseConstant(area: number, weight: number, pNorm: number): number {
  return powf(f(area * weight), f(1 / pNorm));
}

/** |x|^p in float: x*x*x for p = 3 (libvmaf's special case), powf otherwise. */
export function floatPower(x: number, pNorm: number, pFloat: number): number {
  return pNorm === 3.0 ? f(f(x * x) * x) : powf(x, pFloat);
}

/** The denominator of one scale (adm_csf_den_scale_s): float sums per row, then per scale. */
export function floatCsfDenominator(
  ref: Orientations<Float32Array>,
  w: number,
  h: number,
  stride: number,
  weights: readonly number[],
  noiseWeight: number,
  pNorm: number,
): number {
  const { left, top, right, bottom } = scoreRegion(w, h);
  const pFloat = f(pNorm);
  const bands = [ref.h, ref.v, ref.d];
  const noise = noiseConstant((right - left) * (bottom - top), noiseWeight, pNorm);
  let total = 0;
  for (let theta = 0; theta < 3; theta++) {
    const band = bands[theta]!;
    const weight = weights[theta]!;
    let accum = 0;
    for (let i = top; i < bottom; i++) {
      let inner = 0;
      for (let x = i * stride + left, end = i * stride + right; x < end; x++) {
        inner = f(inner + floatPower(Math.abs(f(weight * band[x]!)), pNorm, pFloat));
      }
      accum = f(accum + inner);
    }
    const term = f(powf(accum, f(1 / pNorm)) + noise);
    total = theta === 0 ? term : f(total + term);
  }
  return total;
}
