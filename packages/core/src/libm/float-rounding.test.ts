import { expect, test } from "bun:test";
import { floatIfUnambiguous } from "./float-rounding.ts";

test("floatIfUnambiguous refuses values within the bound of a float rounding boundary", () => {
  const midpoint = 1 + 2 ** -24; // halfway between the floats 1 and 1 + 2^-23
  expect(Number.isNaN(floatIfUnambiguous(midpoint, 2 ** -40))).toBe(true);
  expect(Number.isNaN(floatIfUnambiguous(midpoint + 2 ** -45, 2 ** -40))).toBe(true);
  expect(floatIfUnambiguous(midpoint - 2 ** -38, 2 ** -40)).toBe(1);
  expect(floatIfUnambiguous(midpoint + 2 ** -38, 2 ** -40)).toBe(1 + 2 ** -23);
  expect(floatIfUnambiguous(0, 0)).toBe(0);
});
