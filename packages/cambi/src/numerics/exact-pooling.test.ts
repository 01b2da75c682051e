import { describe, expect, test } from "bun:test";
import { POOL_WORDS, pooledFromWords } from "./exact-pooling.ts";
import { topkCount } from "./topk-pooling.ts";
import { quickSelectMean } from "./quickselect-mean.ts";

/** The words the GPU's pooling kernel writes for `values` when more than k are non-zero. */
function wordsFor(values: Float32Array, k: number): Uint32Array {
  const sorted = Float32Array.from(values).sort().reverse();
  const t = sorted[k - 1]!;
  let above = 0;
  let units = 0n;
  for (const v of values) {
    if (v > t) {
      above++;
      units += BigInt(v * 2 ** 24); // exact: every value is a multiple of 2^-24
    }
  }
  const words = new Uint32Array(POOL_WORDS);
  words[0] = values.filter((v) => v > 0).length;
  words[3] = above;
  words[4] = Number(units & 0xffffffffn);
  words[5] = Number(units >> 32n);
  words[6] = new Uint32Array(Float32Array.of(t).buffer)[0]!;
  return words;
}

function values(n: number, low: number, spread: number, seed: number): Float32Array {
  let s = seed;
  const next = () => ((s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32);
  return Float32Array.from({ length: n }, () => Math.fround(low + next() * spread));
}

describe("exact top-k pooling from the GPU's sums", () => {
  test("past 2^29, large values still pool exactly: every partial sum is a multiple of the k-th value's last bit", () => {
    const n = 300_000;
    const v = values(n, 4096, 5000, 3); // all ≥ 4096: steps of 2^-11, exact up to 2^42
    const k = topkCount(0.6, n);
    const pooled = pooledFromWords(wordsFor(v, k), 0, n, 0.6);
    expect(pooled).not.toBeNull();
    expect(pooled! * k).toBeGreaterThan(2 ** 29);
    expect(pooled).toBe(quickSelectMean(v, k));
  });

  test("a sum that could round in double, whatever its order, is handed back for replay", () => {
    const n = 300_000;
    // Half the values large, half just above 0.5: the k-th is small (steps of 2^-24, exact only below 2^29).
    const large = values(n / 2, 4096, 5000, 5);
    const small = values(n / 2, 0.5, 0.25, 7);
    const v = Float32Array.from([...large, ...small]);
    const k = topkCount(0.6, n);
    expect(quickSelectMean(v, k) * k).toBeGreaterThan(2 ** 29);
    expect(pooledFromWords(wordsFor(v, k), 0, n, 0.6)).toBeNull();
  });
});
