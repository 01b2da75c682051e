import { describe, expect, test } from "bun:test";
import { fma } from "./fma.ts";
import { ONE_THIRD_F, powf } from "./powf.ts";

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);

/** x = m·2^e exactly, for finite x. */
function exact(x: number): { m: bigint; e: number } {
  f64[0] = x;
  const biased = (u32[1]! >>> 20) & 0x7ff;
  let m = (BigInt(u32[1]! & 0xfffff) << 32n) | BigInt(u32[0]!);
  if (biased) m |= 1n << 52n;
  return { m: x < 0 ? -m : m, e: (biased || 1) - 1075 };
}

/** a·b + c rounded once, by BigInt arithmetic and Number()'s own correct rounding. */
function fmaReference(a: number, b: number, c: number): number {
  const x = exact(a), y = exact(b), z = exact(c);
  const e = Math.min(x.e + y.e, z.e);
  const sum = ((x.m * y.m) << BigInt(x.e + y.e - e)) + (z.m << BigInt(z.e - e));
  if (sum === 0n) return 0;
  // scale into Number's range keeping 60+ bits plus a sticky bit, then let Number() round
  const neg = sum < 0n;
  let mag = neg ? -sum : sum;
  let shift = mag.toString(2).length - 62;
  let exp = e;
  if (shift > 0) {
    const sticky = mag & ((1n << BigInt(shift)) - 1n) ? 1n : 0n;
    mag = (mag >> BigInt(shift)) | sticky;
    exp += shift;
  }
  const v = Number(mag) * 2 ** exp;
  return neg ? -v : v;
}

let seed = 12345;
const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) | 0) >>> 0) / 4294967296;

describe("glibc powf", () => {
  test("fma rounds a·b + c once, also under cancellation and near ties", () => {
    let bad = 0;
    for (let i = 0; i < 50000; i++) {
      const a = (random() - 0.5) * 2 ** Math.floor(random() * 40 - 20);
      const b = (random() - 0.5) * 2 ** Math.floor(random() * 40 - 20);
      const kind = i % 4;
      const c = kind === 0 ? -(a * b) : kind === 1 ? -(a * b) * (1 + 2 ** -30) : kind === 2 ? random() - 0.5 : -Math.fround(a * b);
      if (!Object.is(fma(a, b, c) + 0, fmaReference(a, b, c) + 0)) bad++;
    }
    expect(bad).toBe(0);
  });

  test("the fast path gives what the exact fused steps give", () => {
    let bad = 0;
    for (let i = 0; i < 100000; i++) {
      const x = Math.fround(i % 2 ? random() * 200 : Math.exp((random() - 0.5) * 40));
      const y = i % 3 ? 7 : Math.fround(random() * 6);
      if (powf(x, y) !== powf(x, y, true)) bad++;
    }
    expect(bad).toBe(0);
  });

  test("the fast path gives what the exact fused steps give for cube roots over the whole float range", () => {
    let bad = 0;
    for (let i = 0; i < 100000; i++) {
      const x = Math.fround(2 ** ((random() - 0.5) * 290));
      if (powf(x, ONE_THIRD_F) !== powf(x, ONE_THIRD_F, true)) bad++;
    }
    expect(bad).toBe(0);
  });

  test("edge values: zero, subnormal, underflow", () => {
    expect(powf(0, 7)).toBe(0);
    expect(powf(1, 7)).toBe(1);
    expect(powf(2, 7)).toBe(128);
    expect(powf(1e-40, 7)).toBe(0); // 1e-280 underflows float
    expect(powf(1e-7, 7)).toBe(0); // 1e-49: below the smallest float
    expect(powf(Math.fround(0.5), 7)).toBe(1 / 128);
    expect(powf(Infinity, ONE_THIRD_F)).toBe(Infinity);
    expect(powf(NaN, ONE_THIRD_F)).toBeNaN();
    expect(powf(-8, ONE_THIRD_F)).toBeNaN();
  });
});
