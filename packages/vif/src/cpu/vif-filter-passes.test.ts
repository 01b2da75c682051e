import { describe, expect, test } from "bun:test";
import { fold17 } from "./vif-filter-passes.ts";
import { VIF_FILTERS } from "../numerics/vif-filters.ts";

describe("vif filter passes", () => {
  test("fold17 is VIF_FILTERS[0] applied at the centre sample", () => {
    const filter = VIF_FILTERS[0]!;
    // a unit impulse at each offset reads back each tap
    for (let k = 0; k < filter.length; k++) {
      const x = new Float64Array(filter.length);
      x[k] = 1;
      expect(fold17(x, 8)).toBe(filter[filter.length - 1 - k]!);
    }
    // and full-range 32-bit values give the exact sum (below 2^48)
    const x = Float64Array.from({ length: 17 }, (_, i) => 4294967295 - i * 65537);
    let sum = 0n;
    for (let k = 0; k < 17; k++) sum += BigInt(filter[k]!) * BigInt(x[k]!);
    expect(BigInt(fold17(x, 8))).toBe(sum);
  });
});
