import { describe, expect, test } from "bun:test";
import { gpuForTests, runWordKernel } from "@vq/gpu-core/testing";
import u64Wgsl from "../../../../shaders/common/u64.wgsl" with { type: "text" };
import f64Wgsl from "../../../../shaders/common/f64.wgsl" with { type: "text" };
import { epsilonSteps, f64Words } from "./vif-gpu-params.ts";
import { seededRandom as random } from "@vq/core/testing";
import { f64CaseHarness } from "./f64-case-harness.ts";

/**
 * shaders/common/f64.wgsl against the CPU's own IEEE doubles (JavaScript numbers): every
 * operation on many operands, including ones built to round at exact ties.
 */
const gpu = await gpuForTests();

const OPS = { mul: 0, div: 1, sub: 2, trunc: 3, less: 4, fromU32: 5, min: 6 } as const;
type Op = keyof typeof OPS;

const HARNESS = f64CaseHarness(
  8,
  /* wgsl */ `
  var r = F64(vec2u(0u, 0u), 0);
  var flag = 0u;
  switch (cases[c + 6u]) {
    case 0u: { r = f64_mul(a, b); }
    case 1u: { r = f64_div(a, b); }
    case 2u: { r = f64_sub(a, b); }
    case 3u: { r.m = f64_trunc(a); }
    case 4u: { flag = select(0u, 1u, f64_less(a, b)); }
    case 5u: { r = f64_from_u32(cases[c]); }
    default: { r = f64_min(a, b); }
  }
  out[4u * i] = r.m.x;
  out[4u * i + 1u] = r.m.y;
  out[4u * i + 2u] = bitcast<u32>(r.e);
  out[4u * i + 3u] = flag;`,
);

interface Case {
  op: Op;
  a: number;
  b: number;
}

async function runOnGpu(cases: Case[]): Promise<Uint32Array> {
  const input = new Uint32Array(cases.length * 8);
  cases.forEach(({ op, a, b }, i) => {
    input.set(op === "fromU32" ? [a, 0, 0] : f64Words(a), 8 * i);
    input.set(op === "trunc" || op === "fromU32" ? [0, 0, 0] : f64Words(b), 8 * i + 3);
    input[8 * i + 6] = OPS[op];
  });
  return runWordKernel(gpu!, [u64Wgsl, f64Wgsl, HARNESS].join("\n"), input, cases.length * 4, Math.ceil(cases.length / 64));
}

/** What the CPU computes for a case, in the kernel's output form. */
function expected({ op, a, b }: Case): [number, number] {
  switch (op) {
    case "mul":
      return [a * b, 0];
    case "div":
      return [a / b, 0];
    case "sub":
      return [a - b, 0];
    case "trunc":
      return [Math.trunc(a), 0];
    case "less":
      return [0, a < b ? 1 : 0];
    case "fromU32":
      return [a, 0];
    case "min":
      return [Math.min(a, b), 0];
  }
}

function actual(op: Op, words: Uint32Array, i: number): [number, number] {
  const [lo, hi, e, flag] = [words[4 * i]!, words[4 * i + 1]!, words[4 * i + 2]! | 0, words[4 * i + 3]!];
  if (op === "less") return [0, flag];
  if (op === "trunc") return [hi * 2 ** 32 + lo, 0];
  return [(hi * 2 ** 32 + lo) * 2 ** e, 0]; // exact: a 53-bit integer times a power of two
}

/** Positive doubles of the magnitudes vif meets (2^-40 .. 2^46), some with few mantissa bits (ties). */
function operand(next: () => number): number {
  const bits = next() < 0.4 ? 1 + Math.floor(next() * 6) : 53;
  let m = 1; // a mantissa of `bits` significant bits
  for (let i = 1; i < bits; i++) m = m * 2 + (next() < 0.5 ? 1 : 0);
  return m * 2 ** (Math.floor(next() * 86) - 40 - (bits - 1));
}

/** Whether the exact product of a and b lies exactly halfway between two doubles. */
function productIsTie(a: number, b: number): boolean {
  const [al, ah] = f64Words(a);
  const [bl, bh] = f64Words(b);
  const p = ((BigInt(ah) << 32n) | BigInt(al)) * ((BigInt(bh) << 32n) | BigInt(bl));
  const dropped = BigInt(p.toString(2).length - 53);
  return (p & ((1n << dropped) - 1n)) === 1n << (dropped - 1n);
}

function cases(seed: number, count: number): Case[] {
  const next = random(seed);
  const list: Case[] = [];
  const ops: Op[] = ["mul", "div", "sub", "trunc", "less", "min"];
  for (let i = 0; i < count; i++) {
    const op = ops[i % ops.length]!;
    let a = operand(next);
    let b = next() < 0.15 ? a : operand(next);
    if (op === "sub") {
      if (a === b) b = a / 3;
      if (a < b) [a, b] = [b, a];
    }
    if (op === "trunc") a = Math.min(a, 2 ** 60);
    list.push({ op, a, b });
  }
  // vif's shapes: integers below 2^31 divided, multiplied by integers, subtracted from integers
  for (let i = 0; i < count / 2; i++) {
    const s1 = 2 ** 17 + Math.floor(next() * (2 ** 31 - 2 ** 17));
    const s12 = 1 + Math.floor(next() * 2 ** (1 + Math.floor(next() * 31)));
    const g = s12 / s1;
    list.push({ op: "div", a: s12, b: s1 }, { op: "mul", a: g, b: s12 }, { op: "mul", a: g * g, b: s1 });
    const p = g * s12;
    const a = 1 + Math.floor(next() * (2 ** 31 - 1));
    if (p < a) list.push({ op: "sub", a, b: p }, { op: "trunc", a: a - p, b: 0 });
    list.push({ op: "fromU32", a, b: 0 });
  }
  // divisions of mantissas at the ends of their range and close to each other
  const mantissa = () => (next() < 0.5 ? 2 ** 52 + Math.floor(next() * 2 ** 12) : 2 ** 53 - 1 - Math.floor(next() * 2 ** 12));
  for (let i = 0; i < count / 2; i++) {
    const a = mantissa();
    const b = next() < 0.3 ? a + Math.floor(next() * 5) - 2 : mantissa();
    if (b >= 2 ** 52 && b < 2 ** 53) list.push({ op: "div", a: a * 2 ** (Math.floor(next() * 40) - 60), b: b * 2 ** -52 });
  }
  return list;
}

describe.skipIf(!gpu)("exact doubles in WGSL (shaders/common/f64.wgsl)", () => {
  test("every operation rounds like the CPU's doubles, ties included", async () => {
    const list = [
      ...cases(12345, 24000),
      // ties and carries: products of few-bit mantissas, a mantissa rounding up to 2^53
      { op: "mul" as const, a: 2 ** 53 - 1, b: 1 + 2 ** -52 },
      { op: "mul" as const, a: 3, b: (2 ** 53 - 1) * 2 ** -52 },
      { op: "sub" as const, a: 2 ** 30, b: 2 ** -30 },
      { op: "sub" as const, a: 2 ** 30, b: 2 ** -80 },
      { op: "sub" as const, a: 1 + 2 ** -52, b: 2 ** -54 },
      { op: "sub" as const, a: 2 ** 31 - 1, b: 2 ** 31 - 1.5 },
      { op: "div" as const, a: 2 ** 31 - 1, b: 2 ** 17 + 6.5536e-6 },
      { op: "fromU32" as const, a: 2 ** 32 - 1, b: 0 },
      { op: "trunc" as const, a: 2 ** 46 - 0.5, b: 0 },
    ];
    const words = await runOnGpu(list);
    const wrong: string[] = [];
    list.forEach((c, i) => {
      const want = expected(c);
      const got = actual(c.op, words, i);
      if (got[0] !== want[0] || got[1] !== want[1]) wrong.push(`${c.op}(${c.a}, ${c.b}): GPU ${got}, CPU ${want}`);
    });
    expect(wrong.slice(0, 20)).toEqual([]);
    expect(list.length).toBeGreaterThan(100000);
    // the operands reach the rounding's hard case
    expect(list.filter((c) => c.op === "mul" && productIsTie(c.a, c.b)).length).toBeGreaterThan(100);
  }, 300_000);
});

describe("the constants the vif kernels get", () => {
  test("f64Words splits a double into its mantissa and exponent", () => {
    for (const x of [1, 100, 1.5, 65536 * 1.0e-10, 2 ** 31 - 1, Math.PI]) {
      const [lo, hi, e] = f64Words(x);
      expect((hi * 2 ** 32 + lo) * 2 ** e).toBe(x);
      expect(hi).toBeGreaterThanOrEqual(2 ** 20);
      expect(hi).toBeLessThan(2 ** 21);
    }
    expect(() => f64Words(0)).toThrow();
    expect(() => f64Words(Infinity)).toThrow();
  });

  test("sigma1_sq + eps is sigma1_sq plus a step that depends only on its binade", () => {
    const steps = epsilonSteps();
    const next = random(7);
    const eps = 65536 * 1.0e-10;
    for (let i = 0; i < 200000; i++) {
      const binade = 17 + (i % 14);
      const s = 2 ** binade + Math.floor(next() * 2 ** binade);
      const sum = s + eps;
      expect((s * 2 ** (52 - binade) + steps[binade]!) * 2 ** (binade - 52)).toBe(sum);
    }
  });
});
