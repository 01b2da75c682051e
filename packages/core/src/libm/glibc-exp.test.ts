import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { glibcExp, glibcExpFunction } from "./glibc-exp.ts";

// The oracle is glibc itself: under Bun, Math.exp is the C library's exp. On x86-64 glibc
// picks its FMA build where the CPU has FMA, as on the machine that made the golden outputs.
const glibcFma = process.platform === "linux" && /\bfma\b/.test(readFileSync("/proc/cpuinfo", "utf8"));

let seed = 2463534242;
const random = () => {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 2 ** 32;
};

test.skipIf(!glibcFma)("glibcExp is glibc's exp bit for bit: SVM kernel arguments, the whole range, subnormal results, the edges", () => {
  const xs: number[] = [0, -0, 2 ** -54, -(2 ** -54), 2 ** -55, 1e-300, 512, -512, 709.782712893384, 709.79, -708.3964185322641, -745.1332191019411, -745.14, 1024, -1024, Infinity, -Infinity];
  const ranges: [number, number, number][] = [[-60, 0, 200_000], [-1, 1, 50_000], [-745, -700, 20_000], [-1100, -500, 20_000], [500, 709.7, 20_000], [-1e-10, 1e-10, 5_000]];
  for (const [lo, hi, n] of ranges) for (let i = 0; i < n; i++) xs.push(lo + (hi - lo) * random());
  const differing = xs.filter((x) => !Object.is(glibcExp(x), Math.exp(x)));
  expect(differing).toEqual([]);
  expect(glibcExp(NaN)).toBeNaN();
});

test("glibcExpFunction is glibc's exp too, whichever it picks (Math.exp only where it is glibc's)", () => {
  const exp = glibcExpFunction();
  if (glibcFma) expect(exp).toBe(Math.exp); // under Bun on glibc: the fast native one
  const xs = Array.from({ length: 100_000 }, () => -60 * random());
  expect(xs.filter((x) => !Object.is(exp(x), glibcExp(x)))).toEqual([]);
});
