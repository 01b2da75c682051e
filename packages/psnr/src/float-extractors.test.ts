import { describe, expect, test } from "bun:test";
import { FeatureCollector, Picture, VqError, type PictureFormat } from "@vq/core";
import { ansnrFilter2d, ansnrRowSumsLength, ANSNR_DIS_KERNEL, ANSNR_REF_KERNEL } from "./ansnr-filter.ts";
import { floatPeak, FLOAT_ANSNR_NAMES, FLOAT_MOMENT_NAMES } from "./float-definitions.ts";
import { FloatAnsnrCpu } from "./float-ansnr-cpu.ts";
import { FloatMomentCpu } from "./float-moment-cpu.ts";
import { mirrorIndex } from "./float-picture.ts";
import { FloatPsnrCpu } from "./float-psnr-cpu.ts";

const extractors = () => [new FloatPsnrCpu(), new FloatAnsnrCpu(), new FloatMomentCpu()];

/** A picture filled from a seeded hash, `shift` bits up (so 8-bit content can be put in a 10-bit container). */
function picture(format: PictureFormat, seed: number, shift = 0): Picture {
  const p = Picture.allocate(format);
  const max = (1 << (format.bitDepth - shift)) - 1;
  for (const plane of p.planes) {
    for (let k = 0; k < plane.data.length; k++) plane.data[k] = ((Math.imul(k + 1, 0x9e3779b1) ^ Math.imul(seed, 0x85ebca6b)) >>> 7) % (max + 1) << shift;
  }
  return p;
}

function run(format: PictureFormat, ref: Picture, dist: Picture): FeatureCollector {
  const collector = new FeatureCollector();
  for (const e of extractors()) {
    e.init(format);
    e.extract({ ref, dist }, 0, collector);
  }
  return collector;
}

describe("float_psnr, float_ansnr, float_moment", () => {
  test("bit depths picture_copy cannot convert are refused with a clear error", () => {
    const format: PictureFormat = { width: 16, height: 16, bitDepth: 9, pixelFormat: "420" };
    for (const e of extractors()) {
      expect(() => e.init(format)).toThrow(VqError);
      expect(() => e.init(format)).toThrow(new RegExp(`feature ${e.definition.name}: 9-bit input is not supported`));
    }
  });

  test("float_ansnr refuses pictures too small for its mirrored 5x5 filter; the others take them", () => {
    for (const [width, height] of [
      [2, 8],
      [8, 2],
    ]) {
      const format: PictureFormat = { width: width!, height: height!, bitDepth: 8, pixelFormat: "444" };
      expect(() => new FloatAnsnrCpu().init(format)).toThrow(/float_ansnr: a \d+x\d+ picture is too small/);
      expect(() => new FloatPsnrCpu().init(format)).not.toThrow();
      expect(() => new FloatMomentCpu().init(format)).not.toThrow();
    }
  });

  test("identical pictures score float_psnr's cap for the bit depth", () => {
    for (const bitDepth of [8, 10, 12, 16]) {
      const format: PictureFormat = { width: 23, height: 11, bitDepth, pixelFormat: "420" };
      const p = picture(format, 1);
      const c = run(format, p, p);
      const { psnrMax } = floatPeak(bitDepth);
      expect(c.get("float_psnr", 0)).toBe(psnrMax);
      // not so float_ansnr: the two pictures go through different filters, so noise remains
      expect(c.get(FLOAT_ANSNR_NAMES[1], 0)).toBeLessThan(psnrMax);
    }
  });

  test("8-bit content in a 10-bit container scales back to the same floats", () => {
    const f8: PictureFormat = { width: 37, height: 19, bitDepth: 8, pixelFormat: "400" };
    const f10: PictureFormat = { ...f8, bitDepth: 10 };
    const c8 = run(f8, picture(f8, 1), picture(f8, 2));
    const c10 = run(f10, picture(f10, 1, 2), picture(f10, 2, 2));
    // moments and ansnr see identical float pictures; psnr and anpsnr differ only by the peak
    for (const k of [...FLOAT_MOMENT_NAMES, FLOAT_ANSNR_NAMES[0]]) expect(c10.get(k, 0)).toBe(c8.get(k, 0)!);
    const dB = 20 * Math.log10(255.75 / 255);
    expect(c10.get("float_psnr", 0)! - c8.get("float_psnr", 0)!).toBeCloseTo(dB, 10);
    expect(c10.get(FLOAT_ANSNR_NAMES[1], 0)! - c8.get(FLOAT_ANSNR_NAMES[1], 0)!).toBeCloseTo(dB, 10);
  });

  test("the ansnr kernels are normalised and symmetric top to bottom (the filter sums each distinct row once)", () => {
    for (const [kernel, size] of [
      [ANSNR_REF_KERNEL, 3],
      [ANSNR_DIS_KERNEL, 5],
    ] as const) {
      expect(kernel.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 6);
      for (let r = 0; r < size; r++) expect([...kernel.subarray(r * size, r * size + size)]).toEqual([...kernel.subarray((size - 1 - r) * size, (size - r) * size)]);
    }
  });

  test("the ansnr filter equals the direct 2-D filter, float step by float step", () => {
    // a direct transcription of the per-sample loops, on mirrored edges, against the row-sum scheme
    const w = 9;
    const h = 7;
    const pad = 2;
    const padded = new Float32Array((w + 2 * pad) * (h + 2 * pad));
    for (let i = 0; i < padded.length; i++) padded[i] = (Math.imul(i + 7, 0x9e3779b1) >>> 22) / 4 - 128;
    for (const kernel of [ANSNR_REF_KERNEL, ANSNR_DIS_KERNEL]) {
      const size = Math.sqrt(kernel.length);
      const out = new Float32Array(w * h);
      ansnrFilter2d(kernel, padded, pad, w, h, out, new Float32Array(ansnrRowSumsLength(size, w, h)));
      for (let y = 0; y < h; y++) {
        for (let x = 0; x < w; x++) {
          let accum = 0;
          for (let fi = 0; fi < size; fi++) {
            let inner = 0;
            for (let fj = 0; fj < size; fj++) {
              const v = padded[(y + pad - (size >> 1) + fi) * (w + 2 * pad) + x + pad - (size >> 1) + fj]!;
              inner = Math.fround(inner + Math.fround(kernel[fi * size + fj]! * v));
            }
            accum = Math.fround(accum + inner);
          }
          expect(out[y * w + x]).toBe(accum);
        }
      }
    }
  });

  test("mirroring: the near edge skips the edge sample, the far edge repeats it", () => {
    expect([-2, -1, 0, 4, 5, 6].map((i) => mirrorIndex(i, 5))).toEqual([2, 1, 0, 4, 4, 3]);
  });
});
