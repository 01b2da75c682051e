import { describe, expect, test } from "bun:test";
import { seededRandom } from "@vq/core/testing";
import { CubeShifts, maskedCube, maskedCubeExact } from "./contrast-masking.ts";
import { scaledMagnitudeQ32, weightQ32 } from "./csf-bands.ts";
import { int64ToFloat32, splitToFloat32 } from "./int64.ts";
import { fma, fmaExact, ONE_THIRD_F, powf } from "@vq/core/libm";

/**
 * The double fast paths against BigInt transliterations of libvmaf's int64 C
 * expressions (wrap-arounds and arithmetic shifts included), on random and edge inputs.
 */

// Deterministic xorshift so a failure reproduces.
const random = seededRandom(0x9e3779b9);
const randomInt = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;
const edgeInt32 = [0, 1, -1, 32767, -32768, 2 ** 21 - 1, -(2 ** 21), 2 ** 24, -(2 ** 24), 2 ** 26, INT32_MAX, INT32_MIN, INT32_MIN + 1];
const i32 = (x: bigint) => Number(BigInt.asIntN(32, x));

function samplesInt32(n: number): number[] {
  const out = [...edgeInt32];
  for (let i = 0; i < n; i++) {
    const bits = randomInt(0, 31); // spread magnitudes over every bit length
    out.push(Math.trunc((random() * 2 - 1) * 2 ** bits));
  }
  return out;
}

describe("Q32 CSF weighting", () => {
  test("weightQ32 = (int32)((w * (int64)v + 2^27) >> 28)", () => {
    for (const weight of [0, 1, 48_000_000, 134_217_728, 2 ** 31 - 1, 2 ** 31, 4_294_967_295, randomInt(0, 2 ** 32 - 1)]) {
      const hi = Math.floor(weight / 65536);
      const lo = weight - hi * 65536;
      for (const v of samplesInt32(3000)) {
        const expected = i32((BigInt(weight) * BigInt(v) + (1n << 27n)) >> 28n);
        expect(weightQ32(v, weight, hi, lo)).toBe(expected);
      }
    }
  });

  test("scaledMagnitudeQ32 = (int32)((c * abs(v) + (int32_t)(1u << 31)) >> 32), abs(INT_MIN) = INT_MIN", () => {
    for (const c of [143165577, 286331153]) {
      for (const v of samplesInt32(5000)) {
        const m = v === INT32_MIN ? BigInt(INT32_MIN) : BigInt(Math.abs(v));
        expect(scaledMagnitudeQ32(v, c)).toBe(i32((BigInt(c) * m - (1n << 31n)) >> 32n));
      }
    }
  });
});

/** Nearest float to an integer, ties to even, decided on exact BigInt distances. */
function referenceFloat(v: bigint): number {
  if (v < 2n ** 53n && v > -(2n ** 53n)) return Math.fround(Number(v)); // Number() is exact here
  const guess = Math.fround(Number(v));
  const f32 = new Float32Array(1);
  const u32 = new Uint32Array(f32.buffer);
  f32[0] = guess;
  const candidates = [-1, 0, 1].map((d) => {
    u32[0] = (u32[0]! + d) >>> 0;
    const c = f32[0]!;
    f32[0] = guess;
    return c;
  });
  let best = candidates[1]!;
  let bestDistance = -1n;
  for (const c of candidates) {
    if (!Number.isFinite(c)) continue;
    const distance = BigInt(c) > v ? BigInt(c) - v : v - BigInt(c);
    f32[0] = c;
    const even = (u32[0]! & 1) === 0;
    if (bestDistance < 0n || distance < bestDistance || (distance === bestDistance && even)) {
      best = c;
      bestDistance = distance;
    }
  }
  return best;
}

describe("int64 to float conversions (one rounding, as C's (float) of an int64)", () => {
  const values: bigint[] = [];
  for (let i = 0; i < 3000; i++) {
    const x = BigInt(Math.trunc((random() * 2 - 1) * 2 ** randomInt(0, 47)));
    const y = BigInt(Math.trunc((random() * 2 - 1) * 2 ** randomInt(0, 48)));
    values.push(x * 65536n + y);
  }
  // exact float midpoints above 2^53 and their neighbours: where double rounding would go wrong
  for (let i = 0; i < 2000; i++) {
    const e = BigInt(randomInt(30, 38));
    const mantissa = BigInt(randomInt(2 ** 23, 2 ** 24 - 1));
    const midpoint = (2n * mantissa + 1n) << (e - 1n);
    for (const d of [-1n, 0n, 1n]) values.push(random() < 0.5 ? midpoint + d : -(midpoint + d));
  }

  test("int64ToFloat32 matches an exact nearest-even reference", () => {
    for (const v of values) expect(int64ToFloat32(v)).toBe(referenceFloat(v));
  });

  test("splitToFloat32(x, y) = (float)(x * 2^16 + y)", () => {
    for (const v of values) {
      const x = v >= 0n ? v / 65536n : -((-v + 65535n) / 65536n);
      const y = v - x * 65536n;
      expect(splitToFloat32(Number(x), Number(y))).toBe(referenceFloat(v));
    }
  });
});

describe("masked cubes", () => {
  test("maskedCube is exact or declines (NaN) only where a double cannot hold the result", () => {
    for (const [square, cube] of [
      [29, 6],
      [30, 7],
      [30, 10],
      [30, 16],
    ] as const) {
      const k = new CubeShifts(square, cube);
      for (let i = 0; i < 4000; i++) {
        const x = i < 3 ? [0, 2 ** 26, INT32_MAX][i]! : Math.floor(random() * 2 ** randomInt(0, 31));
        const exact = maskedCubeExact(x, k);
        const fast = maskedCube(x, k);
        if (Number.isNaN(fast)) expect(exact >= 2n ** 52n || exact < 0n).toBe(true);
        else expect(fast).toBe(Number(exact));
      }
    }
  });
});

describe("fma and powf", () => {
  test("fma rounds once: the exact error of a product, a product alone, a sum alone", () => {
    for (let i = 0; i < 3000; i++) {
      const a = (random() - 0.5) * 2 ** randomInt(-40, 40);
      const b = (random() - 0.5) * 2 ** randomInt(-40, 40);
      const c = (random() - 0.5) * 2 ** randomInt(-40, 40);
      const p = a * b;
      // Dekker: a * b - p is a double, so fma must return it exactly
      const split = (x: number) => {
        const t = 134217729 * x;
        const hi = t - (t - x);
        return [hi, x - hi] as const;
      };
      const [ah, al] = split(a);
      const [bh, bl] = split(b);
      const error = al * bl - (((p - ah * bh) - al * bh) - ah * bl);
      expect(fma(a, b, -p) + 0).toBe(error + 0); // +0 folds -0 (IEEE gives +0 for an exact zero)
      expect(fma(a, b, 0)).toBe(p);
      expect(fma(a, 1, c)).toBe(a + c);
    }
  });

  test("powf(x, 1.0f/3.0f) is within one float ULP of the real cube-ish root", () => {
    expect(powf(0, ONE_THIRD_F)).toBe(0);
    expect(powf(Infinity, ONE_THIRD_F)).toBe(Infinity);
    for (let i = 0; i < 3000; i++) {
      const x = Math.fround(random() * 2 ** randomInt(-30, 60));
      const got = powf(x, ONE_THIRD_F);
      const real = Math.pow(x, ONE_THIRD_F);
      expect(Math.abs(got - real)).toBeLessThanOrEqual(2 ** (Math.floor(Math.log2(real)) - 23));
    }
  });
});

describe("fma's fast path", () => {
  test("equals the BigInt fma on random operands and on products whose sums land on or next to a tie", () => {
    const cases: [number, number, number][] = [];
    for (let i = 0; i < 20000; i++) {
      cases.push([(random() - 0.5) * 2 ** randomInt(-30, 30), (random() - 0.5) * 2 ** randomInt(-30, 30), (random() - 0.5) * 2 ** randomInt(-60, 30)]);
    }
    for (let i = 0; i < 20000; i++) {
      // a·b has 2^-60-grained tails: c cancels its head so a·b + c sits at or near a tie of the result
      const a = 1 + randomInt(1, 2 ** 20) * 2 ** -30;
      const b = 1 + randomInt(1, 2 ** 20) * 2 ** -30;
      const p = a * b;
      const tail = [0, 2 ** -53, -(2 ** -53), 2 ** -54, 2 ** -60][randomInt(0, 4)]!;
      cases.push([a, b, -Math.floor(p) + tail], [a, b, -(p - 2 ** -52) + tail], [-a, b, p + tail]);
    }
    for (const [a, b, c] of cases) expect(fma(a, b, c)).toBe(fmaExact(a, b, c));
  });
});
