import { describe, expect, test } from "bun:test";
import { allocateImage, type FloatImage } from "./float-image.ts";
import { PRESCALE_METHODS, resample, resampling } from "./prescale.ts";

function image(width: number, height: number, value: (x: number, y: number) => number): FloatImage {
  const img = allocateImage({ width, height });
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) img.data[y * width + x] = value(x, y);
  return img;
}

describe("speed_prescale resampling", () => {
  test("nearest picks source samples at trunc(i * ratio)", () => {
    const src = image(10, 6, (x, y) => 100 * y + x);
    const dst = allocateImage({ width: 6, height: 4 });
    resample(resampling("nearest", src, dst), src, dst);
    for (let y = 0; y < 4; y++) {
      for (let x = 0; x < 6; x++) expect(dst.data[y * 6 + x]).toBe(src.data[Math.trunc(Math.fround(y * Math.fround(6 / 4))) * 10 + Math.trunc(Math.fround(x * Math.fround(10 / 6)))]!);
    }
  });

  for (const method of PRESCALE_METHODS) {
    test(`${method}: a flat picture stays flat, up and down`, () => {
      const src = image(40, 30, () => 37.5);
      for (const size of [{ width: 24, height: 18 }, { width: 100, height: 75 }]) {
        const dst = allocateImage(size);
        resample(resampling(method, src, dst), src, dst);
        for (const v of dst.data) expect(Math.abs(v - 37.5)).toBeLessThan(1e-4);
      }
    });

    test(`${method}: sources stay inside the picture (mirrored) and weights are finite`, () => {
      const r = resampling(method, { width: 81, height: 80 }, { width: 200, height: 33 });
      for (const [a, n] of [[r.x, 81], [r.y, 80]] as const) {
        for (const i of a.index) expect(i >= 0 && i < n).toBe(true);
        for (const w of a.weight) expect(Number.isFinite(w)).toBe(true);
      }
    });
  }

  test("bilinear interpolates a ramp exactly between samples", () => {
    const src = image(16, 4, (x) => 2 * x);
    const dst = allocateImage({ width: 8, height: 2 });
    resample(resampling("bilinear", src, dst), src, dst);
    // output x reads source (x + 0.5) * 2 - 0.5 = 2x + 0.5: the ramp there is 4x + 1
    for (let x = 0; x < 8; x++) expect(dst.data[x]).toBe(4 * x + 1);
  });
});
