/**
 * CIEDE2000 colour difference ΔE00 between two Lab colours, as libvmaf computes it
 * (ported there from av-metrics): every named quantity is a C float, the expressions
 * between them run in double (C's pow/sqrt/sin/cos/atan2/exp take doubles), so each
 * assignment below is rounded with Math.fround where libvmaf stores a float, and float
 * ⊗ float operations are rounded where C does them in float. libvmaf's deviations from
 * the CIE formula are kept: the mean hue always adds 2π when the hues are more than π
 * apart, and a zero chroma test uses the unprimed chroma.
 * Weights k_L = 0.65, k_C = 1, k_H = 4 (libvmaf's default_ksub).
 *
 * libm calls are Math.* (glibc's, under Bun), except for the hue angles (hueAngle) and
 * T (hueWeight), which are computed faster and checked to round to libvmaf's floats.
 */

import { floatIfUnambiguous, powf, productError } from "@vq/core/libm";
import { atan2Fast } from "./fast-atan2.ts";

const f32 = Math.fround;
const PI = Math.PI;
const TWO_PI = 2 * Math.PI;
const K_L = f32(0.65);
const POW_25_7 = 6103515625; // pow(25, 7), exact in double
const POWF_25_7 = f32(6103515625); // powf(25, 7): folded by the compiler, correctly rounded
const PI_6 = Math.PI / 6.0;
const PI_30 = Math.PI / 30.0;
const SEVEN_PI_20 = (7.0 * Math.PI) / 20.0;
const DEGREES_PER_RADIAN = 180.0 / Math.PI;
const RADIANS_PER_DEGREE = Math.PI / 180.0;
const ONE_25TH = 1.0 / 25.0;

/**
 * x^7 for a float x, rounded once to double: what glibc's pow gives (it is correctly
 * rounded in all but the rarest cases; JavaScriptCore's Math.pow multiplies repeatedly
 * for integer exponents, which can be an ulp off). x² is exact; x⁴, x³ and x⁷ are
 * carried as double-double products.
 */
export function pow7(x: number): number {
  const x2 = x * x; // 48 significant bits: exact
  const x4 = x2 * x2;
  const x4e = productError(x2, x2, x4);
  const x3 = x2 * x;
  const x3e = productError(x2, x, x3);
  const p = x4 * x3;
  return p + (productError(x4, x3, p) + (x4 * x3e + x4e * x3));
}

/** Relative bound on |atan2Fast − glibc's atan2| (2 ulp in fact). */
const ATAN2_BOUND = 2 ** -40;

/** libvmaf's get_h_prime: the hue angle in [0, 2π), 0 for a neutral colour. */
function hueAngle(b: number, aPrime: number): number {
  if (b === 0 && aPrime === 0) return 0;
  const approx = atan2Fast(b, aPrime);
  let h = floatIfUnambiguous(approx, Math.abs(approx) * ATAN2_BOUND);
  if (h !== h) h = f32(Math.atan2(b, aPrime));
  if (h < 0) h = f32(h + TWO_PI);
  return h;
}

const COS_PI_6 = Math.cos(PI_6), SIN_PI_6 = Math.sin(PI_6);
const COS_PI_30 = Math.cos(PI_30), SIN_PI_30 = Math.sin(PI_30);
const COS_7PI_20 = Math.cos(SEVEN_PI_20), SIN_7PI_20 = Math.sin(SEVEN_PI_20);
/** Bound on |T computed below − T from four glibc cosines|: ~5e-15 in fact (T is near 1). */
const T_BOUND = 2 ** -40;

/**
 * T = 1 − 0.17·cos(H − π/6) + 0.24·cos 2H + 0.32·cos(3H + π/30) − 0.20·cos(4H − 7π/20),
 * rounded to float. libvmaf calls cos four times; here cos H and sin H are computed once
 * and the multiple angles follow from angle-addition formulas. That differs from the
 * four glibc results by a few 1e-16, so the float is libvmaf's unless T lies within
 * 2^-40 of a float rounding boundary (about once in 10^5); then the four cosines decide.
 */
function hueWeight(h: number): number {
  const c = Math.cos(h);
  const s = Math.sin(h);
  const c2 = 2 * c * c - 1;
  const s2 = 2 * s * c;
  const c3 = c2 * c - s2 * s;
  const s3 = s2 * c + c2 * s;
  const c4 = c2 * c2 - s2 * s2;
  const s4 = 2 * s2 * c2;
  const t = floatIfUnambiguous(
    1.0 -
      0.17 * (c * COS_PI_6 + s * SIN_PI_6) +
      0.24 * c2 +
      0.32 * (c3 * COS_PI_30 - s3 * SIN_PI_30) -
      0.2 * (c4 * COS_7PI_20 + s4 * SIN_7PI_20),
    T_BOUND,
  );
  if (t === t) return t;
  return f32(1.0 - 0.17 * Math.cos(h - PI_6) + 0.24 * Math.cos(2.0 * h) + 0.32 * Math.cos(3.0 * h + PI_30) - 0.2 * Math.cos(4.0 * h - SEVEN_PI_20));
}

/** ΔE00 of Lab colours (l1, a1, b1) and (l2, a2, b2), all floats; the result is a float. */
export function deltaE2000(l1: number, a1: number, b1: number, l2: number, a2: number, b2: number): number {
  const deltaLPrime = f32(l2 - l1);
  const lBar = f32(f32(l1 + l2) / 2);
  const c1 = f32(Math.sqrt(a1 * a1 + b1 * b1));
  const c2 = f32(Math.sqrt(a2 * a2 + b2 * b2));
  const cBar = f32(f32(c1 + c2) / 2);
  const cBar7 = pow7(cBar);
  const g = 1 - Math.sqrt(cBar7 / (cBar7 + POW_25_7));
  const aPrime1 = f32(a1 + (a1 / 2) * g);
  const aPrime2 = f32(a2 + (a2 / 2) * g);
  const cPrime1 = f32(Math.sqrt(aPrime1 * aPrime1 + b1 * b1));
  const cPrime2 = f32(Math.sqrt(aPrime2 * aPrime2 + b2 * b2));
  const cBarPrime = f32(f32(cPrime1 + cPrime2) / 2);
  const deltaCPrime = f32(cPrime2 - cPrime1);
  const l50 = f32(lBar - 50);
  const l50sq = l50 * l50;
  const sL = f32(1 + (0.015 * l50sq) / Math.sqrt(20 + l50sq));
  const sC = f32(1 + 0.045 * cBarPrime);
  const h1 = hueAngle(b1, aPrime1);
  const h2 = hueAngle(b2, aPrime2);

  // Δh' (libvmaf's get_delta_h_prime)
  let deltaHPrime: number;
  if (c1 === 0 || c2 === 0) deltaHPrime = 0;
  else {
    const d = f32(h2 - h1);
    if (Math.abs(d) <= PI) deltaHPrime = d;
    else if (h2 <= h1) deltaHPrime = f32(d + TWO_PI);
    else deltaHPrime = f32(d - TWO_PI);
  }
  const deltaUpperHPrime = f32(2.0 * Math.sqrt(f32(cPrime1 * cPrime2)) * Math.sin(deltaHPrime / 2.0));

  // H̄' (libvmaf's get_upcase_h_bar_prime)
  const hSum = f32(h1 + h2);
  const hBarPrime = Math.abs(f32(h1 - h2)) > PI ? f32((hSum + TWO_PI) / 2.0) : f32(hSum / 2.0);
  const t = hueWeight(hBarPrime);
  const sH = f32(1.0 + 0.015 * cBarPrime * t);

  // R_T (libvmaf's get_r_sub_t, whose powf calls work in float)
  const degrees = f32((f32(hBarPrime * DEGREES_PER_RADIAN) - 275.0) * ONE_25TH);
  const cBarPrime7 = powf(cBarPrime, 7);
  const rotation = f32(f32(60.0 * Math.exp(-f32(degrees * degrees))) * RADIANS_PER_DEGREE);
  const rT = f32(-2.0 * Math.sqrt(f32(cBarPrime7 / f32(cBarPrime7 + POWF_25_7))) * Math.sin(rotation));

  const lightness = f32(deltaLPrime / f32(K_L * sL));
  const chroma = f32(deltaCPrime / sC);
  const hue = f32(deltaUpperHPrime / f32(4 * sH));
  return f32(Math.sqrt(lightness * lightness + chroma * chroma + hue * hue + f32(f32(rT * chroma) * hue)));
}
