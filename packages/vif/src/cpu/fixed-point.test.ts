import { describe, expect, test } from "bun:test";
import { createLog2Table, fixedLog2 } from "../numerics/log2-table.ts";
import { roundedHighProduct } from "./vif-statistic.ts";

/** A small deterministic generator (xorshift32), so failures reproduce. */
function random(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s;
  };
}

const TWO_32 = 2 ** 32;

describe("64-bit steps kept exact in doubles", () => {
  // libvmaf: (uint32_t)(((uint64_t)x * y + 2147483648) >> 32), checked in BigInt
  const reference = (x: number, y: number) => Number(((BigInt(x) * BigInt(y) + 2147483648n) >> 32n) & 0xffffffffn);

  test("roundedHighProduct equals the uint64 computation", () => {
    const edges = [0, 1, 2, 65535, 65536, 65537, 2 ** 31 - 1, 2 ** 31, 2 ** 31 + 1, TWO_32 - 65536, TWO_32 - 2, TWO_32 - 1];
    for (const x of edges) for (const y of edges) expect(roundedHighProduct(x, y)).toBe(reference(x, y));
    const next = random(1234);
    for (let i = 0; i < 100_000; i++) {
      // mixes full-range values and values near a rounding boundary
      const x = i & 1 ? next() : (next() & 0xffff0000) >>> 0;
      const y = next();
      expect(roundedHighProduct(x, y)).toBe(reference(x, y));
    }
  });

  test("fixedLog2 equals libvmaf's log2_64 for values up to 2^53", () => {
    const table = createLog2Table();
    // libvmaf: k = 48 - clzll(x); table[x >> k] + 2048 * k
    const reference = (x: bigint) => {
      const k = x.toString(2).length - 16;
      return table[Number(x >> BigInt(k))]! + 2048 * k;
    };
    const next = random(99);
    for (let bits = 17; bits <= 53; bits++) {
      const low = 2n ** BigInt(bits - 1);
      for (const x of [low, low + 1n, 2n * low - 1n, low + (low >> 1n)]) expect(fixedLog2(table, Number(x))).toBe(reference(x));
      for (let i = 0; i < 2000; i++) {
        const x = low + ((BigInt(next()) * BigInt(next())) % low);
        expect(fixedLog2(table, Number(x))).toBe(reference(x));
      }
    }
  });

  test("the log2 table is log2 scaled by 2048 where that is an integer, and never decreases", () => {
    const table = createLog2Table();
    expect(table[32768]).toBe(15 * 2048);
    expect(table[32767]).toBe(Math.round(Math.log2(32767) * 2048));
    for (let i = 32768; i < 65536; i++) expect(table[i]! >= table[i - 1]!).toBe(true);
    expect(table[65535]).toBe(32768); // log2(65535) * 2048 = 32767.96.. rounds up
    expect(table[65536]).toBe(0); // libvmaf never fills (or reads) the last entry
  });
});
