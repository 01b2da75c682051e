import { describe, expect, test } from "bun:test";
import { clipScore, transformScore } from "./score-transform.ts";
import type { ScoreTransform } from "./vmaf-model.ts";

const base: ScoreTransform = { outLteIn: false, outGteIn: false };
const xs = Array.from({ length: 41 }, (_, i) => -20 + i * 3.5);

describe("score transform", () => {
  test("no terms and no knots: identity", () => {
    for (const x of xs) expect(transformScore(base, x)).toBe(x);
  });

  test("polynomial: only the terms present, p0 + p1·x + p2·x·x in that order", () => {
    const t = { ...base, p0: 1.70674692, p1: 1.72643844, p2: -0.00705305 };
    for (const x of xs) expect(transformScore(t, x)).toBe(0 + t.p0 + t.p1 * x + t.p2 * x * x);
    const p1Only = { ...base, p1: 0.5 };
    for (const x of xs) expect(transformScore(p1Only, x)).toBe(0 + 0.5 * x);
  });

  test("out_gte_in / out_lte_in compare with the untransformed score", () => {
    const down = { ...base, p1: 0.5 };
    for (const x of xs) {
      expect(transformScore({ ...down, outGteIn: true }, x)).toBe(Math.max(0.5 * x, x));
      expect(transformScore({ ...down, outLteIn: true }, x)).toBe(Math.min(0.5 * x, x));
    }
  });

  test("knots: exact at the knots, inside each segment between its ends, extrapolated by the end segments", () => {
    const knots = [[0, 10], [40, 50], [60, 50], [100, 110]] as const;
    const t = { ...base, knots };
    for (const [kx, ky] of knots) expect(transformScore(t, kx)).toBeCloseTo(ky, 12);
    for (let i = 0; i + 1 < knots.length; i++) {
      const [a, b] = [knots[i]!, knots[i + 1]!];
      const mid = transformScore(t, (a[0] + b[0]) / 2);
      expect(mid).toBeGreaterThanOrEqual(a[1]);
      expect(mid).toBeLessThanOrEqual(b[1]);
    }
    // Below the first knot the first segment's line continues; above the last, the last's.
    expect(transformScore(t, -10)).toBeCloseTo(10 - 10 * (40 / 40), 12);
    expect(transformScore(t, 110)).toBeCloseTo(110 + 10 * (60 / 40), 12);
  });

  test("knots quirks kept from libvmaf: one knot is ignored, a decreasing segment stops the mapping", () => {
    for (const x of xs) expect(transformScore({ ...base, knots: [[0, 5]] }, x)).toBe(x);
    const broken = { ...base, knots: [[0, 0], [50, 40], [60, 30], [100, 100]] as const };
    // The walk stops at the decreasing segment: values mapped by the first segment stay, others get 0.
    expect(transformScore(broken, 25)).toBe(transformScore({ ...base, knots: [[0, 0], [50, 40]] }, 25));
    expect(transformScore(broken, 80)).toBe(0);
  });
});

describe("clip", () => {
  test("bounds, and NaN passes as libvmaf's comparisons let it", () => {
    const clip = { min: 0, max: 100 };
    for (const x of xs.map((v) => v * 4)) expect(clipScore(clip, x)).toBe(Math.min(100, Math.max(0, x)));
    expect(clipScore(clip, NaN)).toBeNaN();
  });
});
