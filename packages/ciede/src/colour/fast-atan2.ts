/**
 * atan2 in inline double arithmetic, within 2 ulp of glibc's (tested). JavaScriptCore
 * calls libm for Math.atan2, which was the single largest cost of ΔE00 (two hue angles
 * per pixel). Used only where the result is rounded to float at once, with a check that
 * the rounding cannot depend on the last bits (see float-rounding.ts).
 */

// atan(k/16), k = 0..16: the centres the argument is reduced around.
const ATAN_CENTRES = Float64Array.from({ length: 17 }, (_, k) => Math.atan(k / 16));
const HALF_PI = Math.PI / 2;

/** atan(t) for t in [0, 1]: atan(c) + atan((t − c)/(1 + t·c)) with |argument| <= 1/32, a degree-11 series. */
function atanUnit(t: number): number {
  const k = (t * 16 + 0.5) | 0;
  const c = k / 16;
  const u = (t - c) / (1 + t * c);
  const z = u * u;
  return ATAN_CENTRES[k]! + (u + u * z * (-1 / 3 + z * (1 / 5 + z * (-1 / 7 + z * (1 / 9 + z * (-1 / 11))))));
}

/** atan2(y, x) for finite y and x, not both zero. */
export function atan2Fast(y: number, x: number): number {
  const ay = Math.abs(y);
  const ax = Math.abs(x);
  let a = ay <= ax ? atanUnit(ay / ax) : HALF_PI - atanUnit(ax / ay);
  if (x < 0) a = Math.PI - a;
  return y < 0 ? -a : a;
}
