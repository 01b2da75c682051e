import { describe, expect, test } from "bun:test";
import { FeatureCollector, TOLERANCE_CLASSES } from "@vq/core";
import { firstDifference } from "./score-difference.ts";

function scores(values: Record<string, number[]>, aggregates: Record<string, number> = {}): FeatureCollector {
  const c = new FeatureCollector();
  for (const [name, series] of Object.entries(values)) series.forEach((v, i) => c.append(name, i, v));
  for (const [name, v] of Object.entries(aggregates)) c.setAggregate(name, v);
  return c;
}

const bound = TOLERANCE_CLASSES.float.bound;

describe("firstDifference", () => {
  test("identical: the last bit counts; the first differing value is named with both sides", () => {
    const cpu = scores({ a: [1, 2], b: [3, 4] });
    expect(firstDifference(scores({ a: [1, 2], b: [3, 4] }), cpu, 2, "identical")).toBeUndefined();
    expect(firstDifference(scores({ a: [1, 2], b: [3, 4 + 2 ** -50] }), cpu, 2, "identical")).toBe(`b at frame 1 is ${4 + 2 ** -50} on the GPU, 4 on the CPU`);
  });

  test("float: within the parity contract's float bound, absolute for small values and relative for large ones", () => {
    const cpu = scores({ small: [0.5], large: [40] });
    expect(firstDifference(scores({ small: [0.5 + bound * 0.9], large: [40 + 40 * bound * 0.9] }), cpu, 1, "float")).toBeUndefined();
    expect(firstDifference(scores({ small: [0.5 + bound * 1.1], large: [40] }), cpu, 1, "float")).toMatch(/^small at frame 0/);
    expect(firstDifference(scores({ small: [0.5], large: [40 + 40 * bound * 1.1] }), cpu, 1, "float")).toMatch(/^large at frame 0/);
  });

  test("a value or name on one side only, a NaN, and a run-level aggregate differ too", () => {
    const cpu = scores({ a: [1, 2] }, { total: 3 });
    expect(firstDifference(scores({ a: [1] }, { total: 3 }), cpu, 2, "float")).toBe("a at frame 1 is nothing on the GPU, 2 on the CPU");
    expect(firstDifference(scores({ a: [1, 2], z: [0, 0] }, { total: 3 }), cpu, 2, "float")).toBe("z is written on the GPU, not on the CPU");
    expect(firstDifference(scores({ a: [NaN, 2] }, { total: 3 }), cpu, 2, "float")).toBe("a at frame 0 is NaN on the GPU, 1 on the CPU");
    expect(firstDifference(scores({ a: [1, 2] }, { total: 4 }), cpu, 2, "identical")).toBe("total is 4 on the GPU, 3 on the CPU");
  });
});
