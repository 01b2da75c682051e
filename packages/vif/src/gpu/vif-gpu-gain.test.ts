import { describe, expect, test } from "bun:test";
import { gpuForTests, runWordKernel } from "@vq/gpu-core/testing";
import u64Wgsl from "../../../../shaders/common/u64.wgsl" with { type: "text" };
import f64Wgsl from "../../../../shaders/common/f64.wgsl" with { type: "text" };
import gainWgsl from "../../../../shaders/vif/gain.wgsl" with { type: "text" };
import { f64Words } from "./vif-gpu-params.ts";
import { seededRandom as random } from "@vq/core/testing";
import { f64CaseHarness } from "./f64-case-harness.ts";

/**
 * shaders/vif/gain.wgsl (vif's double steps with fixed-shift rounding) against the CPU's
 * own doubles: libvmaf's gain, sv_sq and gain² · sigma1_sq on vif's operand ranges, and
 * the products on their own with few-bit operands that round at exact ties.
 */
const gpu = await gpuForTests();
const EPSILON = 65536 * 1.0e-10;

const HARNESS = f64CaseHarness(
  12,
  /* wgsl */ `
  var r = vec3u(0u);
  var decided = 1u;
  switch (cases[c + 11u]) {
    case 0u: {
      let g = vif_gain(cases[c + 6u], a, cases[c + 7u], cases[c + 8u], b);
      r = vec3u(g.numer, g.sv_sq);
    }
    case 3u: {
      let f = vif_gain_fast(cases[c + 6u], bitcast<f32>(cases[c]), cases[c + 7u], cases[c + 8u], bitcast<f32>(cases[c + 1u]));
      // a capped gain's product as statistic.wgsl takes it
      let capped = gain_trunc(gain_mul_u32(gain_square(b), cases[c + 6u]));
      r = vec3u(select(f.gain.numer, capped, f.capped), f.gain.sv_sq);
      decided = select(0u, 1u, f.decided);
    }
    case 1u: {
      let p = gain_mul_u32(a, cases[c + 6u]);
      r = vec3u(p.m, bitcast<u32>(p.e));
    }
    default: {
      let p = gain_square(a);
      r = vec3u(p.m, bitcast<u32>(p.e));
    }
  }
  out[4u * i] = r.x;
  out[4u * i + 1u] = r.y;
  out[4u * i + 2u] = r.z;
  out[4u * i + 3u] = decided;`,
);

type Sigmas = { s1: number; s12: number; s2: number; limit: number };
type Case = ({ op: "gain" } & Sigmas) | ({ op: "fast" } & Sigmas) | { op: "mul"; a: number; n: number } | { op: "square"; a: number };

async function runOnGpu(cases: Case[]): Promise<Uint32Array> {
  const input = new Uint32Array(cases.length * 12);
  cases.forEach((c, i) => {
    const at = 12 * i;
    if (c.op === "gain") {
      input.set([...f64Words(c.s1 + EPSILON), ...f64Words(c.limit), c.s1, c.s12, c.s2], at);
    } else if (c.op === "fast") {
      // fl(s1 + eps) - s1 and the limit as f32, as statistic.wgsl passes them
      input.set([f32Bits(c.s1 + EPSILON - c.s1), f32Bits(c.limit), 0, ...f64Words(c.limit)], at);
      input.set([c.s1, c.s12, c.s2], at + 6);
    } else {
      input.set(f64Words(c.a), at);
      if (c.op === "mul") input[at + 6] = c.n;
    }
    input[at + 11] = { gain: 0, mul: 1, square: 2, fast: 3 }[c.op];
  });
  return runWordKernel(gpu!, [u64Wgsl, f64Wgsl, gainWgsl, HARNESS].join("\n"), input, cases.length * 4, Math.ceil(cases.length / 64));
}

/** What libvmaf computes in doubles, as the harness writes it. */
function expected(c: Case): string {
  if (c.op === "gain" || c.op === "fast") {
    const g = c.s12 / (c.s1 + EPSILON);
    const sv = c.s2 - g * c.s12;
    const gain = Math.min(g, c.limit);
    return `${BigInt(Math.trunc(gain * gain * c.s1))} ${sv > 0 ? Math.trunc(sv) : 0}`;
  }
  return `${c.op === "mul" ? c.a * c.n : c.a * c.a}`;
}

function actual(c: Case, words: Uint32Array, i: number): string {
  const [x, y, z] = [words[4 * i]!, words[4 * i + 1]!, words[4 * i + 2]!];
  if (c.op === "gain" || c.op === "fast") return `${(BigInt(y) << 32n) | BigInt(x)} ${z}`;
  return `${(y * 2 ** 32 + x) * 2 ** (z | 0)}`;
}

/** A positive double of `bits` significant bits (1 to 53) near 2^scale. */
function mantissaOf(next: () => number, bits: number, scale: number): number {
  let m = 1;
  for (let i = 1; i < bits; i++) m = m * 2 + (next() < 0.5 ? 1 : 0);
  return m * 2 ** (scale - (bits - 1));
}

function cases(seed: number, count: number): Case[] {
  const next = random(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo));
  const list: Case[] = [];
  for (let i = 0; i < count; i++) {
    const s1 = next() < 0.5 ? int(2 ** 17, 2 ** 20) : int(2 ** 17, 2 ** 31);
    // a small sigma12 against a large sigma2_sq: g · sigma12 is below half its last place
    const tiny = i % 10 === 0;
    const s12 = tiny ? int(1, 64) : next() < 0.3 ? int(1, 2 ** 12) : int(1, 2 ** int(13, 32));
    const limit = next() < 0.8 ? 100 : [1, 1.5, 1e6][int(0, 3)]!;
    const g = s12 / (s1 + EPSILON);
    const p = g * s12;
    // sigma2_sq around g · sigma12, where sv_sq's rounding and truncation decide
    const roll = next();
    let s2 = tiny ? int(2 ** 20, 2 ** 31) : roll < 0.4 ? Math.floor(p) + int(0, 3) : roll < 0.7 ? Math.ceil(p) : int(1, 2 ** 31);
    s2 = Math.min(Math.max(s2, 1), 2 ** 31 - 1);
    list.push({ op: "gain", s1, s12, s2, limit });
    // products with few-bit operands: ties
    const bits = next() < 0.5 ? int(1, 8) : 53;
    list.push({ op: "mul", a: mantissaOf(next, bits, int(-30, 30)), n: next() < 0.5 ? int(1, 256) : int(1, 2 ** 32) });
    list.push({ op: "square", a: mantissaOf(next, next() < 0.5 ? int(27, 29) : 53, int(-20, 20)) });
  }
  return list;
}

describe.skipIf(!gpu)("vif's double steps with fixed-shift rounding (shaders/vif/gain.wgsl)", () => {
  test("gain, sv_sq and gain² · sigma1_sq are the CPU's doubles, ties included", async () => {
    const list = [
      ...cases(2024, 60000),
      // the ends of the ranges: smallest and largest sigmas, sigma2_sq a hair above g · sigma12
      { op: "gain" as const, s1: 2 ** 17, s12: 2 ** 31 - 1, s2: 2 ** 31 - 1, limit: 1e6 },
      { op: "gain" as const, s1: 2 ** 31 - 1, s12: 1, s2: 1, limit: 100 },
      { op: "gain" as const, s1: 2 ** 31 - 1, s12: 2 ** 31 - 1, s2: 2 ** 31 - 1, limit: 100 },
      { op: "gain" as const, s1: 2 ** 17, s12: 2 ** 17, s2: 2 ** 17, limit: 100 },
      { op: "mul" as const, a: 2 ** 53 - 1, n: 2 ** 32 - 1 },
      { op: "square" as const, a: (2 ** 53 - 1) * 2 ** -52 },
    ];
    const words = await runOnGpu(list);
    const wrong: string[] = [];
    list.forEach((c, i) => {
      const want = expected(c);
      const got = actual(c, words, i);
      if (got !== want) wrong.push(`${JSON.stringify(c)}: GPU ${got}, CPU ${want}`);
    });
    expect(wrong.slice(0, 20)).toEqual([]);
    // the cases reach the hard ones: sv_sq rounded up to an integer, products at exact ties
    const roundsUp = list.filter((c) => c.op === "gain" && (() => {
      const p = (c.s12 / (c.s1 + EPSILON)) * c.s12;
      return p < c.s2 && p !== Math.floor(p) && c.s2 - p === Math.ceil(c.s2 - p);
    })());
    expect(roundsUp.length).toBeGreaterThan(10);
    const ties = list.filter((c) => (c.op === "mul" && isTie(BigInt(f64Mantissa(c.a)) * BigInt(c.n))) || (c.op === "square" && isTie(BigInt(f64Mantissa(c.a)) ** 2n)));
    expect(ties.length).toBeGreaterThan(100);
  }, 300_000);
});

function f32Bits(x: number): number {
  return new Uint32Array(new Float32Array([x]).buffer)[0]!;
}

function f64Mantissa(x: number): number {
  const [lo, hi] = f64Words(x);
  return hi * 2 ** 32 + lo;
}

/** Whether an exact integer product lies halfway between two 53-bit mantissas. */
function isTie(p: bigint): boolean {
  const dropped = BigInt(p.toString(2).length - 53);
  return dropped > 0n && (p & ((1n << dropped) - 1n)) === 1n << (dropped - 1n);
}

describe.skipIf(!gpu)("vif's gain estimate with an error bound (vif_gain_fast)", () => {
  test("where it says it decided, sv_sq and gain² · sigma1_sq are the CPU's doubles; it decides nearly all", async () => {
    const sampled = cases(7, 60000).flatMap((c) => (c.op === "gain" ? [{ ...c, op: "fast" as const }] : []));
    // s12² a multiple of s1 (s1 = c², s12 = c·k): P an integer, R and T within P · eps / s1
    // of one, which the estimate cannot tell apart (the caller takes the exact path)
    const next = random(11);
    const exactP = Array.from({ length: 2000 }, () => {
      const c = 363 + Math.floor(next() * 40000);
      const k = 1 + Math.floor(next() * Math.min(c, 2 ** 31 / c - 1));
      const p = k * k;
      const s2 = Math.min(2 ** 31 - 1, p + Math.floor(next() * 3));
      return { op: "fast" as const, s1: c * c, s12: c * k, s2, limit: 100 };
    });
    const edges = [
      { op: "fast" as const, s1: 2 ** 17, s12: 2 ** 17, s2: 2 ** 17, limit: 100 },
      { op: "fast" as const, s1: 2 ** 31 - 1, s12: 1, s2: 1, limit: 100 },
      { op: "fast" as const, s1: 2 ** 31 - 1, s12: 2 ** 31 - 1, s2: 2 ** 31 - 1, limit: 100 },
      // gains at and just below the limit, and P at 2^31
      { op: "fast" as const, s1: 2 ** 17, s12: 100 * 2 ** 17, s2: 2 ** 31 - 1, limit: 100 },
      { op: "fast" as const, s1: 2 ** 17, s12: 99 * 2 ** 17, s2: 2 ** 31 - 1, limit: 100 },
      { op: "fast" as const, s1: 2 ** 20, s12: 2 ** 25.5, s2: 2 ** 31 - 1, limit: 1e6 },
    ].map((c) => ({ ...c, s12: Math.floor(c.s12) }));
    const list = [...sampled, ...exactP, ...edges];
    const words = await runOnGpu(list);
    const wrong: string[] = [];
    let decided = 0;
    let decidedExactP = 0;
    list.forEach((c, i) => {
      if (words[4 * i + 3] !== 1) return;
      decided++;
      if (i >= sampled.length && i < sampled.length + exactP.length) decidedExactP++;
      const want = expected(c);
      const got = actual(c, words, i);
      if (got !== want) wrong.push(`${JSON.stringify(c)}: GPU ${got}, CPU ${want}`);
    });
    expect(wrong.slice(0, 20)).toEqual([]);
    // of the random cases with P = s12² / s1 below 2^31 and the gain below the limit (those
    // it takes on), all but a few near-integer ones; a P below 2^-12 (sigma12 of 1 or 2
    // against a large sigma1_sq) leaves R within P of an integer, undecided
    // (capped gains too: sv_sq from here, the product exactly)
    const inRange = sampled.map((c, i) => [c, i] as const).filter(([c]) => {
      const p = (c.s12 * c.s12) / c.s1;
      const g = c.s12 / c.s1;
      return p > 2 ** -12 && Math.abs(g - c.limit) > c.limit * 0.001 && (g > c.limit ? p > 2 ** 31 * 1.001 || p < 2 ** 31 * 0.999 : p < 2 ** 31 * 0.999);
    });
    const decidedInRange = inRange.filter(([, i]) => words[4 * i + 3] === 1).length;
    expect(inRange.length).toBeGreaterThan(sampled.length / 2);
    expect(inRange.filter(([c]) => c.s12 / c.s1 > c.limit).length).toBeGreaterThan(1000);
    expect(decidedInRange / inRange.length).toBeGreaterThan(0.999);
    // the near-integer cases are sent to the exact path (not all: P · eps / s1 may exceed the margin)
    expect(decidedExactP).toBeLessThan(exactP.length);
  }, 300_000);
});
