import { describe, expect, test } from "bun:test";
import { planCambi, type CambiPlan } from "../numerics/cambi-plan.ts";
import { CValues } from "./c-values.ts";
import { cambiOptions } from "../definition.ts";
import { MaskSpans } from "./mask-spans.ts";
import { decimate, ModeFilter } from "./mode-filter.ts";
import { RECIPROCAL } from "../numerics/reciprocal.ts";
import { maskThreshold, SpatialMask } from "./spatial-mask.ts";

/**
 * The fast kernels against direct, pixel-by-pixel versions of libvmaf's definitions
 * (no sliding windows, no spans, no sparse paths), on random pictures with flat patches
 * and random masks, edges included.
 */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0;
    return s / 4294967296;
  };
}

/** A picture of flat patches of nearby codes, with some noise: masks and bands of every kind. */
function patchyPicture(width: number, height: number, seed: number, base = 300, spread = 12): Uint16Array {
  const r = rng(seed);
  const img = new Uint16Array(width * height);
  const patch = 3 + Math.floor(r() * 6);
  const codes = Array.from({ length: 64 }, () => base + Math.floor(r() * spread));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const k = (Math.floor(y / patch) * 7 + Math.floor(x / (patch + 1))) & 63;
      img[y * width + x] = r() < 0.08 ? base + Math.floor(r() * spread) : codes[k]!;
    }
  }
  return img;
}

function randomMask(width: number, height: number, density: number, seed: number): { dense: Uint8Array; spans: MaskSpans } {
  const r = rng(seed);
  const dense = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    let on = r() < density;
    for (let x = 0; x < width; x++) {
      if (r() < 0.15) on = r() < density;
      dense[y * width + x] = on ? 1 : 0;
    }
  }
  return { dense, spans: spansOf(dense, width, height) };
}

function spansOf(dense: Uint8Array, width: number, height: number): MaskSpans {
  const spans = new MaskSpans(height, 4);
  spans.reset();
  for (let y = 0; y < height; y++) {
    spans.beginRow(y);
    for (let x = 0; x < width; x++) {
      if (!dense[y * width + x]) continue;
      let e = x;
      while (e + 1 < width && dense[y * width + e + 1]) e++;
      spans.push(x, e);
      x = e;
    }
  }
  spans.finish(height);
  return spans;
}

function denseOf(spans: MaskSpans, width: number, height: number): Uint8Array {
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let s = spans.rowStart[y]!; s < spans.rowStart[y + 1]!; s++) out.fill(1, y * width + spans.start[s]!, y * width + spans.end[s]! + 1);
  }
  return out;
}

function mode3(a: number, b: number, c: number): number {
  if (a === b || a === c) return a;
  if (b === c) return b;
  return Math.min(a, b, c);
}

function directModeFilter(img: Uint16Array, width: number, height: number): Uint16Array {
  const h = new Uint16Array(img.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const k = y * width + x;
      h[k] = x === 0 || x === width - 1 ? img[k]! : mode3(img[k - 1]!, img[k]!, img[k + 1]!);
    }
  }
  const out = img.slice();
  for (let y = 1; y < height - 1; y++) {
    for (let x = 0; x < width; x++) out[y * width + x] = mode3(h[(y - 1) * width + x]!, h[y * width + x]!, h[(y + 1) * width + x]!);
  }
  return out;
}

function directMask(img: Uint16Array, width: number, height: number): Uint8Array {
  const flat = (y: number, x: number) =>
    (x === width - 1 || img[y * width + x] === img[y * width + x + 1]) && (y === height - 1 || img[y * width + x] === img[(y + 1) * width + x]) ? 1 : 0;
  const threshold = maskThreshold(width, height);
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let n = 0;
      for (let dy = -3; dy <= 3; dy++) for (let dx = -3; dx <= 3; dx++) {
        const yy = y + dy;
        const xx = x + dx;
        if (yy >= 0 && yy < height && xx >= 0 && xx < width) n += flat(yy, xx);
      }
      out[y * width + x] = n > threshold ? 1 : 0;
    }
  }
  return out;
}

/** libvmaf's c-value of each pixel, counting its window directly. */
function directCValues(plan: CambiPlan, img: Uint16Array, mask: Uint8Array, width: number, height: number, windowSize: number): Float32Array {
  const { numDiffs, tviForDiff, vltLuma, diffWeights, bandBase, bandSize } = plan;
  const pad = windowSize >> 1;
  const inBand = (v: number) => v >= bandBase && v < bandBase + bandSize;
  const out = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const k = y * width + x;
      if (!mask[k] || !inBand(img[k]!)) continue;
      const count = new Map<number, number>();
      for (let yy = Math.max(0, y - pad); yy <= Math.min(height - 1, y + pad); yy++) {
        for (let xx = Math.max(0, x - pad); xx <= Math.min(width - 1, x + pad); xx++) {
          const kk = yy * width + xx;
          if (mask[kk] && inBand(img[kk]!)) count.set(img[kk]!, (count.get(img[kk]!) ?? 0) + 1);
        }
      }
      const v = img[k]!;
      const value = v + numDiffs;
      const p0 = count.get(v) ?? 0;
      let c = 0;
      for (let d = 0; d < numDiffs; d++) {
        if (!(value <= tviForDiff[d]! && value + d + 1 > vltLuma)) continue;
        const p1 = count.get(v + d + 1) ?? 0;
        const p2 = count.get(v - d - 1) ?? 0;
        const pm = Math.max(p1, p2);
        const val = Math.fround(Math.fround(diffWeights[d]! * p0 * pm) * RECIPROCAL[pm + p0]!);
        if (val > c) c = val;
      }
      out[k] = c;
    }
  }
  return out;
}

const SIZES = [
  [40, 23],
  [17, 31],
  [64, 64],
  [9, 9],
];

describe("cambi kernels against direct definitions", () => {
  test("mode filter: dense and sparse paths give libvmaf's values where they are read", () => {
    for (const [width, height] of SIZES as [number, number][]) {
      for (let seed = 1; seed <= 6; seed++) {
        const img = patchyPicture(width, height, seed);
        const expected = directModeFilter(img, width, height);
        const expectedNext = new Uint16Array(((width + 1) >> 1) * ((height + 1) >> 1));
        decimate(expected, width, height, expectedNext);
        for (const density of [0, 0.1, 0.3, 0.9]) {
          const { dense, spans } = randomMask(width, height, density, seed * 31);
          const filter = new ModeFilter(width);
          const image = img.slice();
          const filtered = new Uint16Array(img.length);
          const next = new Uint16Array(expectedNext.length);
          const out = filter.run(image, width, height, spans, filtered, next);
          for (let k = 0; k < img.length; k++) if (dense[k]) expect(out[k]).toBe(expected[k]!);
          expect(next).toEqual(expectedNext);
        }
      }
    }
  });

  test("spatial mask: spans equal the 7x7 count of flat pixels above the threshold", () => {
    for (const [width, height] of [...SIZES, [130, 70]] as [number, number][]) {
      for (let seed = 1; seed <= 4; seed++) {
        const img = patchyPicture(width, height, seed, 500, 3);
        const spans = new MaskSpans(height, 4);
        new SpatialMask(width).compute(img, width, height, spans);
        expect(denseOf(spans, width, height)).toEqual(directMask(img, width, height));
      }
    }
  });

  test("mask spans decimate like the mask's even rows and columns", () => {
    for (const [width, height] of SIZES as [number, number][]) {
      const { dense, spans } = randomMask(width, height, 0.4, 7);
      const w = (width + 1) >> 1;
      const h = (height + 1) >> 1;
      const expected = new Uint8Array(w * h);
      for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) expected[y * w + x] = dense[2 * y * width + 2 * x]!;
      spans.decimate(h);
      expect(denseOf(spans, w, h)).toEqual(expected);
      let pixels = 0;
      for (const v of expected) pixels += v;
      expect(spans.pixels).toBe(pixels);
    }
  });

  test("c-values: sliding histograms count the same windows as direct counting", () => {
    const format = { width: 1920, height: 1080, bitDepth: 8, pixelFormat: "420" as const };
    const optionSets: Record<string, string>[] = [{}, { max_log_contrast: "4", tvi_threshold: "0.05" }, { max_log_contrast: "0", cambi_vis_lum_threshold: "0.5" }];
    for (const opts of optionSets) {
      const plan = planCambi(cambiOptions.parseStrings(opts), format);
      for (const [width, height] of SIZES as [number, number][]) {
        for (const windowSize of [3, 9, 17]) {
          if (windowSize >> 1 > Math.min(width, height)) continue;
          // codes around the luminance floor when there is one, so its test is exercised too
          const base = plan.vltLuma > 0 ? plan.vltLuma - 4 : 100 + 37 * plan.numDiffs;
          const img = patchyPicture(width, height, windowSize + width, base, 2 + 3 * plan.numDiffs + (plan.vltLuma > 0 ? 6 : 0));
          const { dense, spans } = randomMask(width, height, 0.7, height);
          const cv = new CValues(plan, width, height);
          cv.compute(img, spans, width, height, windowSize);
          const got = new Float32Array(width * height);
          cv.writeDense(got, width * height);
          const expected = directCValues(plan, img, dense, width, height, windowSize);
          expect(got).toEqual(expected as Float32Array<ArrayBuffer>);
          let count = 0;
          for (const v of expected) if (v > 0) count++;
          expect(cv.count).toBe(count);
          expect(count).toBeGreaterThan(0);
        }
      }
    }
  });
});
