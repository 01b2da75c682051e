import type { ScoreTransform } from "./vmaf-model.ts";

type Knot = readonly [number, number];

/** libvmaf's find_linear_function_parameters for a non-horizontal segment p1 → p2. */
function segmentLine(p1: Knot, p2: Knot): { slope: number; offset: number } {
  if (p1[0] === 0) {
    const offset = p1[1];
    return { slope: (p2[1] - offset) / p2[0], offset };
  }
  const slope = (p2[1] - p1[1]) / (p2[0] - p1[0]);
  return { slope, offset: p1[1] - p1[0] * slope };
}

/**
 * libvmaf's piecewise_linear_mapping, quirks kept: fewer than two knots leave `x` as is;
 * every segment whose range holds x overwrites y (the last wins); the first and last
 * segments extend below and above the knots; a decreasing segment stops the walk and
 * keeps what y was by then (0 before any match).
 */
function piecewiseLinear(x: number, knots: readonly Knot[]): number {
  if (knots.length <= 1) return x;
  const segments = knots.length - 1;
  let y = 0;
  for (let i = 0; i < segments; i++) {
    const a = knots[i]!;
    const b = knots[i + 1]!;
    if (!(a[0] < b[0] && a[1] <= b[1])) return y;
    const inside = a[0] <= x && x <= b[0];
    const below = i === 0 && x < a[0];
    const above = i === segments - 1 && x > b[0];
    if (a[1] === b[1]) {
      if (inside || below || above) y = a[1];
    } else {
      const { slope, offset } = segmentLine(a, b);
      if (inside || below || above) y = slope * x + offset;
    }
  }
  return y;
}

/**
 * libvmaf's transform(): polynomial p0 + p1·x + p2·x² (terms present only), then the
 * knots, then out_lte_in / out_gte_in against the untransformed score.
 */
export function transformScore(t: ScoreTransform, x: number): number {
  let y = x;
  if (t.p0 !== undefined || t.p1 !== undefined || t.p2 !== undefined) {
    y = 0;
    if (t.p0 !== undefined) y += t.p0;
    if (t.p1 !== undefined) y += t.p1 * x;
    if (t.p2 !== undefined) y += t.p2 * x * x;
  }
  if (t.knots) y = piecewiseLinear(y, t.knots);
  if (t.outLteIn && y > x) y = x;
  if (t.outGteIn && y < x) y = x;
  return y;
}

/** libvmaf's clip(): NaN passes through, as its two comparisons let it. */
export function clipScore(clip: { readonly min: number; readonly max: number }, x: number): number {
  let y = x < clip.min ? clip.min : x;
  y = y > clip.max ? clip.max : y;
  return y;
}
