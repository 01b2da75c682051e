import { expect, test } from "bun:test";
import { pairedTaps } from "./paired-taps.ts";
import { VIF_FILTERS } from "./vif-filters.ts";

/** Each sample's weight summed over the steps: the filter itself. */
function weights(filter: ArrayLike<number>): number[] {
  const half = filter.length >> 1;
  const w = new Array<number>(filter.length + 1).fill(0);
  for (const { offset, a, b } of pairedTaps(filter)) {
    w[offset + half]! += a;
    w[offset + half + 1]! += b;
  }
  return w;
}

test("every vif filter's paired taps weigh each sample as the filter does, each tap a signed 16-bit number", () => {
  for (const filter of VIF_FILTERS) {
    const pairs = pairedTaps(filter);
    expect(weights(filter)).toEqual([...filter, 0]);
    expect(pairs.length).toBe((filter.length + 1) >> 1);
    for (const { a, b } of pairs) expect(Math.max(a, b)).toBeLessThanOrEqual(32767);
  }
});

test("a tap above 2^15 - 1 is split over two steps", () => {
  expect(pairedTaps([10904, 43728, 10904])).toEqual([
    { offset: -1, a: 10904, b: 32767 },
    { offset: 0, a: 10961, b: 10904 },
  ]);
});
