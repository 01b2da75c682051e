import { expect, test } from "bun:test";
import { atan2Fast } from "./fast-atan2.ts";

test("atan2Fast is within 2 ulp of Math.atan2 in every quadrant, also for tiny ratios", () => {
  let seed = 99;
  const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) | 0) >>> 0) / 4294967296;
  let worst = 0;
  for (let i = 0; i < 300000; i++) {
    const y = (random() - 0.5) * 300 * (i % 13 ? 1 : 1e-9);
    const x = (random() - 0.5) * 300 * (i % 10 ? 1 : 1e-7);
    const exact = Math.atan2(y, x);
    worst = Math.max(worst, Math.abs(atan2Fast(y, x) - exact) / Math.abs(exact));
  }
  expect(worst).toBeLessThanOrEqual(2 * 2 ** -52);
  expect(atan2Fast(0, 5)).toBe(0);
  expect(atan2Fast(0, -5)).toBe(Math.PI);
  expect(atan2Fast(3, 3)).toBe(Math.PI / 4);
});
