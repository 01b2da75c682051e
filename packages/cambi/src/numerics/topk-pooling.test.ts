import { describe, expect, test } from "bun:test";
import type { CValues } from "../cpu/c-values.ts";
import { quickSelect, spatialPooling, topkCount } from "./topk-pooling.ts";
import { quickSelectMean } from "./quickselect-mean.ts";

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0;
    return s / 4294967296;
  };
}

/** c-values as the pooling sees them: non-zero floats ≥ 0.5 among zeros, with many ties. */
function cValues(n: number, density: number, seed: number, scale = 40): { dense: Float32Array; sparse: CValues } {
  const r = rng(seed);
  const dense = new Float32Array(n);
  const positions: number[] = [];
  let sum = 0;
  for (let i = 0; i < n; i++) {
    if (r() >= density) continue;
    dense[i] = Math.fround(0.5 + Math.floor(r() * scale) * (r() < 0.5 ? 1 : 1 / 3));
    positions.push(i);
    sum += dense[i]!;
  }
  const sparse = {
    count: positions.length,
    sum,
    writeDense(out: Float32Array, m: number) {
      out.fill(0, 0, m);
      for (const p of positions) out[p] = dense[p]!;
    },
  } as unknown as CValues;
  return { dense, sparse };
}

describe("top-k pooling", () => {
  test("k is topk · n truncated, clipped to [1, n]", () => {
    expect(topkCount(0.6, 10)).toBe(6);
    expect(topkCount(0.0001, 100)).toBe(1);
    expect(topkCount(1, 7)).toBe(7);
  });

  test("libvmaf's quickselect leaves the k largest values in front", () => {
    for (let seed = 1; seed <= 30; seed++) {
      const n = 1 + Math.floor(rng(seed)() * 3000);
      const { dense } = cValues(n, 0.5, seed, 6);
      for (const topk of [0.01, 0.2, 0.6, 1]) {
        const k = topkCount(topk, n);
        const a = dense.slice();
        quickSelect(a, n, k);
        const front = Array.from(a.subarray(0, k)).sort((x, y) => y - x);
        const largest = Array.from(dense).sort((x, y) => y - x).slice(0, k);
        expect(front).toEqual(largest);
      }
    }
  });

  test("the sum gathered in row order equals the quickselect-order sum while it stays below 2^29", () => {
    for (let seed = 1; seed <= 40; seed++) {
      const n = 5000 + seed * 97;
      for (const density of [0.05, 0.3, 0.59]) {
        const { dense, sparse } = cValues(n, density, seed * 7 + density * 100);
        const scratch = new Float32Array(n);
        const pooled = spatialPooling(sparse, n, 0.6, () => scratch);
        expect(pooled).toBe(quickSelectMean(dense, topkCount(0.6, n)));
      }
    }
  });

  test("more non-zero values than k, or large sums, take the quickselect path", () => {
    for (const [density, scale, n] of [
      [0.9, 40, 20000],
      [0.9, 9000, 80000], // sum above 2^29
    ] as const) {
      const { dense, sparse } = cValues(n, density, 5, scale);
      const scratch = new Float32Array(n);
      expect(spatialPooling(sparse, n, 0.6, () => scratch)).toBe(quickSelectMean(dense, topkCount(0.6, n)));
    }
    const big = cValues(400000, 0.5, 9, 9000);
    expect(big.sparse.sum).toBeGreaterThan(2 ** 29);
    expect(spatialPooling(big.sparse, 400000, 0.9, () => new Float32Array(400000))).toBe(quickSelectMean(big.dense, topkCount(0.9, 400000)));
  });
});
