import { describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { extractedScores, lumaPicture, stridedLuma } from "@vq/core/testing";
import type { PicturePair } from "@vq/core";
import { planCambi, type CambiPlan } from "../numerics/cambi-plan.ts";
import { antiDitheredFrom8Bit } from "../numerics/preprocess.ts";
import { cambiOptions, type CambiOptions } from "../definition.ts";
import { CambiCpu } from "./cambi-cpu.ts";
import { CambiWasm, wasmWorkspace } from "./cambi-wasm.ts";
import { CValues } from "./c-values.ts";
import { MaskSpans } from "./mask-spans.ts";
import { ModeFilter } from "./mode-filter.ts";
import { SpatialMask } from "./spatial-mask.ts";
import { CAMBI_KERNELS_WASM } from "./wasm/cambi-kernels.wasm.ts";

/**
 * The WebAssembly kernels (ADR 0040) against the TypeScript reference they implement: 8-bit
 * preprocessing, the spatial mask's spans, the mode filter's masked samples and next scale, and the c-value lists on random pictures and masks of odd and tiny
 * sizes, every window and several plans; then whole extractors, 8- and 10-bit, on
 * pictures with banding, noise, flat areas and full-scale edges.
 */
const module = new WebAssembly.Module(Uint8Array.from(atob(CAMBI_KERNELS_WASM), (c) => c.charCodeAt(0)));

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0;
    return s / 4294967296;
  };
}

/** Flat patches of nearby codes with some noise: masks, runs and bands of every kind. */
function patchy(width: number, height: number, seed: number, base: number, spread: number, noise = 0.08): Uint16Array {
  const r = rng(seed);
  const img = new Uint16Array(width * height);
  const patch = 2 + Math.floor(r() * 7);
  const codes = Array.from({ length: 64 }, () => Math.min(1023, base + Math.floor(r() * spread)));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const k = (Math.floor(y / patch) * 7 + Math.floor(x / (patch + 1))) & 63;
      img[y * width + x] = r() < noise ? Math.min(1023, base + Math.floor(r() * spread)) : codes[k]!;
    }
  }
  return img;
}

/** A plan with room for every size below (window_size 127 gives windows up to 43 at 1000x1000). */
function planFor(options: Partial<CambiOptions>): CambiPlan {
  return planCambi(cambiOptions.resolve({ window_size: 127, ...options }), { width: 1000, height: 1000, bitDepth: 10, pixelFormat: "400" });
}

const SIZES = [
  [1, 1],
  [3, 2],
  [7, 5],
  [16, 3],
  [17, 9],
  [33, 31],
  [100, 37],
  [129, 64],
  [321, 241],
] as const;

test("the 8-bit preprocessing kernel gives antiDitheredFrom8Bit's picture (odd sizes, strided rows, full scale)", () => {
  const ws = wasmWorkspace(module, planFor({}));
  const r = rng(5);
  for (const [w, h] of [...SIZES, [1000, 3], [24, 1]] as const) {
    for (const fill of [() => Math.floor(r() * 256), () => 255, () => (r() < 0.5 ? 0 : 255)]) {
      const packed = lumaPicture({ width: w, height: h, bitDepth: 8, pixelFormat: "400" }, fill);
      for (const picture of [packed, stridedLuma(packed, w + 13)]) {
        const expected = new Uint16Array(w * h);
        antiDitheredFrom8Bit(picture.planes[0]!, expected);
        ws.image.fill(1);
        ws.antiDitheredFrom8Bit(picture.planes[0]!, ws.image);
        expect([w, h, ws.image.subarray(0, w * h)]).toEqual([w, h, expected]);
      }
    }
  }
});

describe("the spatial mask's kernel gives SpatialMask's spans", () => {
  const plan = planFor({});
  const ws = wasmWorkspace(module, plan);
  const pictures: [string, (w: number, h: number, seed: number) => Uint16Array][] = [
    ["patchy", (w, h, seed) => patchy(w, h, seed, 300, 4, 0.02)],
    ["noisy", (w, h, seed) => patchy(w, h, seed, 0, 3, 0.3)],
    ["flat", (w, h) => new Uint16Array(w * h).fill(1023)],
    ["checkerboard", (w, h) => Uint16Array.from({ length: w * h }, (_, i) => ((i % w) + Math.floor(i / w)) % 2 ? 1023 : 0)],
    ["stripes", (w, h) => Uint16Array.from({ length: w * h }, (_, i) => Math.floor((i % w) / 5) % 2)],
  ];
  for (const [name, make] of pictures) {
    test(name, () => {
      for (const [w, h] of SIZES) {
        for (let seed = 1; seed <= 3; seed++) {
          const img = make(w, h, seed * 7919 + w);
          const expected = new MaskSpans(h, 4);
          new SpatialMask(w).compute(img, w, h, expected);
          ws.image.set(img);
          ws.spatialMask.compute(ws.image, w, h, ws.mask);
          const n = expected.rowStart[h]!;
          expect([w, h, ws.mask.pixels]).toEqual([w, h, expected.pixels]);
          expect(Array.from(ws.mask.rowStart.subarray(0, h + 1))).toEqual(Array.from(expected.rowStart.subarray(0, h + 1)));
          expect(Array.from(ws.mask.start.subarray(0, n))).toEqual(Array.from(expected.start.subarray(0, n)));
          expect(Array.from(ws.mask.end.subarray(0, n))).toEqual(Array.from(expected.end.subarray(0, n)));
        }
      }
    });
  }
});

/** Random spans written into `spans` (a density of masked pixels, runs that switch at random). */
function randomSpans(spans: MaskSpans, width: number, height: number, density: number, seed: number): void {
  const r = rng(seed);
  spans.reset();
  for (let y = 0; y < height; y++) {
    spans.beginRow(y);
    let open = -1;
    for (let x = 0; x < width; x++) {
      const on = r() < 0.1 ? r() < density : open >= 0;
      if (on && open < 0) open = x;
      if (!on && open >= 0) {
        spans.push(open, x - 1);
        open = -1;
      }
    }
    if (open >= 0) spans.push(open, width - 1);
  }
  spans.finish(height);
}

describe("the mode filter's kernel gives ModeFilter's masked samples and next scale", () => {
  const plan = planFor({});
  const ws = wasmWorkspace(module, plan);
  const sizes = [...SIZES, [2, 2], [2, 7], [18, 4], [1000, 9]] as const;
  // sparse masks take the reference's masked-only path, dense ones its whole-picture path
  for (const density of [0.1, 0.5, 1]) {
    test(`mask density ${density}`, () => {
      for (const [w, h] of sizes) {
        for (const [base, spread] of [
          [300, 3],
          [0, 1024],
          [1000, 24],
        ] as const) {
          const img = patchy(w, h, w * 7 + h + base, base, spread, 0.2);
          randomSpans(ws.mask, w, h, density, w + base);
          const image = img.slice();
          const filtered = new Uint16Array(w * h);
          const next = new Uint16Array(((w + 1) >> 1) * ((h + 1) >> 1));
          const out = new ModeFilter(w).run(image, w, h, ws.mask, filtered, next);
          ws.image.set(img);
          ws.other.fill(7);
          const got = ws.modeFilter.run(ws.image, w, h, ws.mask, ws.filtered, ws.other);
          const { rowStart, start, end } = ws.mask;
          for (let y = 0; y < h; y++) {
            for (let s = rowStart[y]!; s < rowStart[y + 1]!; s++) {
              const a = y * w + start[s]!;
              const b = y * w + end[s]! + 1;
              expect([w, h, y, Array.from(got.subarray(a, b))]).toEqual([w, h, y, Array.from(out.subarray(a, b))]);
            }
          }
          expect(ws.other.subarray(0, next.length)).toEqual(next);
        }
      }
    });
  }
});

describe("the c-values kernel gives CValues's list", () => {
  const plans: [string, Partial<CambiOptions>][] = [
    ["defaults", {}],
    ["max_log_contrast 0", { max_log_contrast: 0 }],
    ["max_log_contrast 5", { max_log_contrast: 5 }],
    ["tvi 0.012, vlt 10 (a band floor)", { tvi_threshold: 0.012, cambi_vis_lum_threshold: 10 }],
    ["pq", { eotf: "pq", max_log_contrast: 3 }],
  ];
  for (const [name, options] of plans) {
    test(name, () => {
      const plan = planFor(options);
      const ws = wasmWorkspace(module, plan);
      const dense = [new Float32Array(1000 * 1000), new Float32Array(1000 * 1000)] as const;
      let compared = 0;
      for (const [w, h] of SIZES) {
        for (const windowSize of [3, 9, 21, 43]) {
          if (windowSize >> 1 > Math.min(w, h)) continue;
          for (const [base, spread, density] of [
            [plan.bandBase + 2, 12, 0.9],
            [plan.bandBase + Math.floor(plan.bandSize / 2), 40, 0.6],
            [Math.max(0, plan.bandBase + plan.bandSize - 8), 16, 1],
            [0, 6, 0.8],
          ] as const) {
            const img = patchy(w, h, w * 31 + windowSize + base, base, spread);
            randomSpans(ws.mask, w, h, density, base + windowSize);
            const reference = new CValues(plan, w, h);
            reference.compute(img, ws.mask, w, h, windowSize);
            ws.filtered.set(img);
            ws.cValues.compute(ws.filtered, ws.mask, w, h, windowSize);
            expect([w, h, windowSize, base, ws.cValues.count, ws.cValues.sum]).toEqual([w, h, windowSize, base, reference.count, reference.sum]);
            reference.writeDense(dense[0], w * h);
            ws.cValues.writeDense(dense[1], w * h);
            expect(dense[1].subarray(0, w * h)).toEqual(dense[0].subarray(0, w * h));
            if (reference.count > 0) compared++;
          }
        }
      }
      // the inputs reach c-values, not just empty lists
      expect(compared).toBeGreaterThan(40);
    });
  }
});

function pairsOf(bitDepth: number, width: number, height: number, fill: (x: number, y: number, frame: number) => number, frames = 2): PicturePair[] {
  const format = { width, height, bitDepth, pixelFormat: "400" as const };
  return Array.from({ length: frames }, (_, f) => ({
    ref: lumaPicture(format, (x, y) => fill(x + 3, y, f)),
    dist: lumaPicture(format, (x, y) => fill(x, y, f)),
  }));
}

describe("CambiWasm scores what CambiCpu scores", () => {
  const r = rng(42);
  const noise = Array.from({ length: 1 << 16 }, () => r());
  /** A slow gradient (bands of a few codes), a noisy block, a flat block and a full-scale edge. */
  const scene = (max: number) => (x: number, y: number, f: number) => {
    if (x > 200 && y < 60) return noise[(x * 131 + y * 71 + f) & 0xffff]! * max;
    if (x < 40 && y > 100) return y & 1 ? max : 0;
    if (y > 180) return max / 3;
    return ((x + 2 * y + f * 5) / 640) * (max / 8) + max / 4;
  };
  const cases: [string, number, number, number, Partial<CambiOptions>][] = [
    ["8-bit 321x241, defaults", 8, 321, 241, {}],
    ["8-bit 321x241, full_ref, topk 1 (every value pooled)", 8, 321, 241, { full_ref: true, topk: 1 }],
    ["8-bit 217x220, topk 0.01 (the quickselect)", 8, 217, 220, { topk: 0.01 }],
    ["10-bit 320x241, defaults", 10, 320, 241, {}],
    ["10-bit 333x250, enc_bitdepth 8 (anti-dithering), mlc 4", 10, 333, 250, { enc_bitdepth: 8, max_log_contrast: 4 }],
    ["10-bit 300x240, vlt 1, pq, window 127", 10, 300, 240, { cambi_vis_lum_threshold: 1, eotf: "pq", window_size: 127 }],
    ["12-bit 256x216, encoding size 240x216", 12, 256, 216, { enc_width: 240, enc_height: 216 }],
  ];
  for (const [name, bitDepth, w, h, options] of cases) {
    test(name, () => {
      const pairs = pairsOf(bitDepth, w, h, scene(2 ** bitDepth - 1));
      const o = cambiOptions.resolve(options);
      const expected = extractedScores(new CambiCpu(o), pairs);
      expect(Object.values(expected).flat().some((v) => v > 0)).toBe(true);
      expect(extractedScores(new CambiWasm(o, module), pairs)).toEqual(expected);
    });
  }

  test("heatmaps (every c-value, from the kernels' list) are the reference's files", () => {
    const pairs = pairsOf(10, 320, 241, scene(1023));
    const dir = mkdtempSync(join(tmpdir(), "cambi-wasm-heatmaps-"));
    try {
      const files = (kind: string) => {
        const o = cambiOptions.resolve({ heatmaps_path: join(dir, kind) });
        extractedScores(kind === "ts" ? new CambiCpu(o) : new CambiWasm(o, module), pairs);
        return readdirSync(join(dir, kind)).sort().map((f) => [f, readFileSync(join(dir, kind, f))]);
      };
      const expected = files("ts");
      expect(expected.length).toBe(5);
      expect(files("wasm")).toEqual(expected);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("high_res_speedup at 1080p (scale 0 at half size)", () => {
    const pairs = pairsOf(8, 1920, 1080, scene(255), 1);
    const o = cambiOptions.resolve({ cambi_high_res_speedup: 1080 });
    expect(extractedScores(new CambiWasm(o, module), pairs)).toEqual(extractedScores(new CambiCpu(o), pairs));
  });
});
