import { describe, expect, test } from "bun:test";
import { bytesPerSample, cpuKernels, Picture, setCpuKernels, type PictureFormat, type PicturePair } from "@vq/core";
import { extractedScores, seededRandom } from "@vq/core/testing";
import { psnrHvsOptions } from "./definition.ts";
import { psnrHvsFeature } from "./index.ts";
import { PsnrHvsCpu } from "./psnr-hvs-cpu.ts";
import { PsnrHvsWasm } from "./psnr-hvs-wasm.ts";
import { PSNR_HVS_KERNELS_WASM } from "./wasm/psnr-hvs-kernels.wasm.ts";

/**
 * psnr_hvs's WebAssembly SIMD kernels against the TypeScript reference (ADR 0040): the same
 * doubles for every output, on inputs the golden pairs do not reach: sizes whose blocks
 * leave 1, 2 or 3 blocks for a row's last step of four and leave samples over, the smallest
 * planes, every chroma layout, depths 8 to 12 (the transform in i16 lanes below 2^11, in
 * i32 lanes above), samples beyond the bit depth, full-scale and flat pictures, strided
 * planes. parity-wasm.test.ts holds the kernels to libvmaf.
 */
const module = new WebAssembly.Module(Buffer.from(PSNR_HVS_KERNELS_WASM, "base64"));
const KEYS = ["psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr", "psnr_hvs"];

function expectSame(pairs: PicturePair[]): void {
  const o = psnrHvsOptions.resolve({});
  const wasm = extractedScores(new PsnrHvsWasm(o, module), pairs);
  expect(Object.keys(wasm).sort()).toEqual([...KEYS].sort());
  expect(wasm).toEqual(extractedScores(new PsnrHvsCpu(o), pairs));
}

/** A picture whose every plane's sample (x, y) is `fill(x, y, plane)`, rounded and clamped to 0..max. */
function picture(format: PictureFormat, fill: (x: number, y: number, plane: number) => number, max = 2 ** format.bitDepth - 1): Picture {
  const p = Picture.allocate(format);
  p.planes.forEach((plane, n) => {
    for (let y = 0; y < plane.height; y++) {
      for (let x = 0; x < plane.width; x++) plane.data[y * plane.stride + x] = Math.min(max, Math.max(0, Math.round(fill(x, y, n))));
    }
  });
  return p;
}

/**
 * A textured reference and distorted pictures: one with errors of a few levels in some
 * bands, large ones in others and none elsewhere (terms zero, masked and not), and noise.
 */
function naturalPairs(format: PictureFormat, seed: number, max = 2 ** format.bitDepth - 1): PicturePair[] {
  const random = seededRandom(seed);
  const level = max / 255;
  const ref = picture(format, (x, y, p) => level * (128 + 60 * Math.sin((x + 3 * p) / 5) * Math.cos(y / 7) + 30 * random() * ((x >> 4) & 1)), max);
  const errors = [0, 6, 200, 2];
  const dist = picture(format, (x, y, p) => ref.planes[p]!.data[y * ref.planes[p]!.stride + x]! + (random() - 0.5) * errors[(y >> 3) % 4]! * level, max);
  const noise = picture(format, () => random() * max, max);
  return [
    { ref, dist },
    { ref: noise, dist: ref },
  ];
}

/** The same picture with every plane's rows `extra` samples longer than its width (a decoder's stride). */
function strided(p: Picture, extra: number): Picture {
  const bytes = bytesPerSample(p.bitDepth);
  const layouts = [];
  let offset = 0;
  for (const plane of p.planes) {
    layouts.push({ width: plane.width, height: plane.height, offset, stride: plane.width + extra });
    offset += plane.height * (plane.width + extra) * bytes;
  }
  const out = new Picture(p.format, new Uint8Array(offset), layouts);
  p.planes.forEach((plane, n) => {
    const to = out.planes[n]!;
    for (let y = 0; y < plane.height; y++) to.data.set(plane.data.subarray(y * plane.stride, y * plane.stride + plane.width), y * to.stride);
    // what lies past each row's width must not be read
    for (let y = 0; y < plane.height; y++) to.data.fill(2 ** p.bitDepth - 1, y * to.stride + plane.width, (y + 1) * to.stride);
  });
  return out;
}

// [name, bitDepth, width, height, pixelFormat]: rows of blocks whose last step of four holds
// 1, 2, 3 or 4 of them, samples left over past the last block (width and height not 1 mod 7)
const CASES: [string, number, number, number, PictureFormat["pixelFormat"]][] = [
  ["odd size, 4:2:0", 8, 61, 37, "420"],
  ["odd size, 4:2:2", 10, 45, 33, "422"],
  ["odd size, 4:4:4", 12, 50, 44, "444"],
  ["chroma of one block (8x8), 4:2:0", 8, 16, 17, "420"],
  ["chroma of 15x8 (two blocks across), 4:2:0", 10, 31, 16, "420"],
  ["chroma narrower than a row of four blocks", 9, 43, 64, "422"],
  ["the smallest plane", 8, 8, 8, "444"],
  ["a 1080p row's remainder: 274 blocks, two in the last step", 8, 1920, 22, "420"],
  ["11-bit", 11, 57, 29, "420"],
  ["wide and short", 12, 260, 15, "444"],
];

describe("PsnrHvsWasm (WebAssembly SIMD) against PsnrHvsCpu (TypeScript)", () => {
  for (const [name, bitDepth, width, height, pixelFormat] of CASES) {
    test(`${name}: ${width}x${height} ${pixelFormat} ${bitDepth}-bit, structure, small and large errors, noise`, () => {
      expectSame(naturalPairs({ width, height, bitDepth, pixelFormat }, width * 31 + height));
    });
  }

  test("12-bit samples above and below 2^11 (the transform in i32 lanes, then i16), at 2047 and 2048, and a rounding tie", () => {
    const format: PictureFormat = { width: 47, height: 40, bitDepth: 12, pixelFormat: "420" };
    expectSame(naturalPairs(format, 1));
    expectSame(naturalPairs(format, 2, 2047));
    const edge = (v: number) => picture(format, (x, y) => ((x + y) % 3 === 0 ? v : v - 1000 * ((x >> 2) & 1)));
    // a flat 3072 block's transform meets a lifting step's tie ((a·c) mod 2^s = 2^(s−1)),
    // where rounding it down would leave a coefficient −1 the flat distorted block's masks cannot hide
    const flat = (v: number) => picture(format, () => v);
    expectSame([
      { ref: edge(2047), dist: edge(2048) },
      { ref: edge(2048), dist: edge(2047) },
      { ref: edge(2047), dist: edge(2047) },
      { ref: flat(3072), dist: flat(3000) },
    ]);
  });

  test("identical pictures score +Infinity, as the reference", () => {
    const format: PictureFormat = { width: 40, height: 24, bitDepth: 10, pixelFormat: "422" };
    const [{ ref }] = naturalPairs(format, 3) as [PicturePair];
    const scores = extractedScores(new PsnrHvsWasm(psnrHvsOptions.resolve({}), module), [{ ref, dist: ref }]);
    for (const key of KEYS) expect(scores[key]).toEqual([Infinity]);
    expectSame([{ ref, dist: ref }]);
  });

  test("full-scale checkerboards and stripes, maximal and flat pictures, at 8, 10 and 12 bits", () => {
    for (const bitDepth of [8, 10, 12]) {
      const format: PictureFormat = { width: 58, height: 30, bitDepth, pixelFormat: "444" };
      const max = 2 ** bitDepth - 1;
      const checker = picture(format, (x, y) => (((x >> 1) + (y >> 1)) & 1 ? max : 0));
      const stripes = picture(format, (x) => (x & 1 ? max : 0));
      const full = picture(format, () => max);
      const zero = picture(format, () => 0);
      const middle = picture(format, () => max >> 1);
      expectSame([
        { ref: checker, dist: stripes },
        { ref: full, dist: zero },
        { ref: zero, dist: full },
        { ref: checker, dist: full },
        { ref: middle, dist: checker },
        { ref: middle, dist: full },
      ]);
    }
  });

  test("planes whose rows are longer than their width (a decoder's stride), 8 and 10 bits", () => {
    for (const bitDepth of [8, 10]) {
      const format: PictureFormat = { width: 45, height: 38, bitDepth, pixelFormat: "420" };
      const pairs = naturalPairs(format, 5);
      const o = psnrHvsOptions.resolve({});
      const stridedPairs = pairs.map(({ ref, dist }) => ({ ref: strided(ref, 13), dist: strided(dist, 3) }));
      expect(extractedScores(new PsnrHvsWasm(o, module), stridedPairs)).toEqual(extractedScores(new PsnrHvsCpu(o), pairs));
    }
  });

  test("samples beyond the bit depth: the kernels up to 4095, the reference's numbers and errors above", () => {
    const format: PictureFormat = { width: 64, height: 48, bitDepth: 10, pixelFormat: "420" };
    // 10-bit planes holding 11- and 12-bit samples (kernels), 13-bit ones (the reference's planeError)
    expectSame(naturalPairs(format, 7, 2000));
    expectSame(naturalPairs(format, 8, 4095));
    expectSame(naturalPairs(format, 9, 5000));
    // past where libvmaf's ints overflow: the same error naming the frame and range
    const [ok] = naturalPairs(format, 10) as [PicturePair];
    const [wild] = naturalPairs(format, 11, 65535) as [PicturePair];
    const o = psnrHvsOptions.resolve({});
    const message = (() => {
      try {
        extractedScores(new PsnrHvsCpu(o), [ok, wild]);
      } catch (e) {
        return (e as Error).message;
      }
    })();
    expect(message).toMatch(/^feature psnr_hvs: invalid input: frame 1: psnr_hvs_y has samples beyond 0\.\.1023/);
    expect(() => extractedScores(new PsnrHvsWasm(o, module), [ok, wild])).toThrow(message!);
  });

  test("formats the reference refuses, refused alike", () => {
    const o = psnrHvsOptions.resolve({});
    for (const format of [
      { width: 14, height: 64, bitDepth: 8, pixelFormat: "420" },
      { width: 64, height: 15, bitDepth: 8, pixelFormat: "420" },
      { width: 7, height: 64, bitDepth: 10, pixelFormat: "444" },
      { width: 64, height: 64, bitDepth: 16, pixelFormat: "420" },
      { width: 64, height: 64, bitDepth: 8, pixelFormat: "400" },
    ] as PictureFormat[]) {
      const message = (() => {
        try {
          new PsnrHvsCpu(o).init(format);
        } catch (e) {
          return (e as Error).message;
        }
      })();
      expect(message).toBeDefined();
      expect(() => new PsnrHvsWasm(o, module).init(format)).toThrow(message!);
    }
  });
});

/**
 * The largest |intermediate| of od-dct.ts's 8x8 transform over samples in 0..max: each value
 * an affine form of the 64 samples (exact for the butterflies, c / 2^s for a lifting step)
 * plus an interval for the roundings (±1/2 a lifting step or halving, carried through).
 */
function transformBound(max: number): number {
  type Form = { c: Float64Array; lo: number; hi: number };
  let bound = 0;
  const note = (f: Form): Form => {
    let above = 0;
    let below = 0;
    for (const v of f.c) v > 0 ? (above += v) : (below += v);
    bound = Math.max(bound, max * above + f.hi, -(max * below + f.lo));
    return f;
  };
  const add = (a: Form, b: Form) => note({ c: a.c.map((v, i) => v + b.c[i]!), lo: a.lo + b.lo, hi: a.hi + b.hi });
  const sub = (a: Form, b: Form) => note({ c: a.c.map((v, i) => v - b.c[i]!), lo: a.lo - b.hi, hi: a.hi - b.lo });
  const scaled = (a: Form, k: number) => note({ c: a.c.map((v) => v * k), lo: a.lo * k - 0.5, hi: a.hi * k + 0.5 });
  const half = (a: Form) => scaled(a, 0.5);
  const lift = (a: Form, c: number, s: number) => scaled(a, c / 2 ** s);
  // od-dct.ts's fdct8, step by step
  const fdct8 = (x: Form[]): Form[] => {
    let [t0, t4, t2, t6, t7, t3, t5, t1] = x as [Form, Form, Form, Form, Form, Form, Form, Form];
    t1 = sub(t0, t1);
    const t1h = half(t1);
    t0 = sub(t0, t1h);
    t4 = add(t4, t5);
    const t4h = half(t4);
    t5 = sub(t5, t4h);
    t3 = sub(t2, t3);
    t2 = sub(t2, half(t3));
    t6 = add(t6, t7);
    const t6h = half(t6);
    t7 = sub(t6h, t7);
    t0 = add(t0, t6h);
    t6 = sub(t0, t6);
    t2 = sub(t4h, t2);
    t4 = sub(t2, t4);
    t0 = sub(t0, lift(t4, 13573, 15));
    t4 = add(t4, lift(t0, 11585, 14));
    t0 = sub(t0, lift(t4, 13573, 15));
    t6 = sub(t6, lift(t2, 21895, 15));
    t2 = add(t2, lift(t6, 15137, 14));
    t6 = sub(t6, lift(t2, 21895, 15));
    t3 = add(t3, lift(t5, 19195, 15));
    t5 = add(t5, lift(t3, 11585, 14));
    t3 = sub(t3, lift(t5, 7489, 13));
    t7 = sub(half(t5), t7);
    t5 = sub(t5, t7);
    t3 = sub(t1h, t3);
    t1 = sub(t1, t3);
    t7 = add(t7, lift(t1, 3227, 15));
    t1 = sub(t1, lift(t7, 6393, 15));
    t7 = add(t7, lift(t1, 3227, 15));
    t5 = add(t5, lift(t3, 2485, 13));
    t3 = sub(t3, lift(t5, 18205, 15));
    t5 = add(t5, lift(t3, 2485, 13));
    return [t0, t1, t2, t3, t4, t5, t6, t7];
  };
  const samples = Array.from({ length: 64 }, (_, k) => note({ c: Float64Array.from({ length: 64 }, (_, i) => (i === k ? 1 : 0)), lo: 0, hi: 0 }));
  const columns = [0, 1, 2, 3, 4, 5, 6, 7].flatMap((i) => fdct8([0, 1, 2, 3, 4, 5, 6, 7].map((k) => samples[i + 8 * k]!)));
  for (let i = 0; i < 8; i++) fdct8([0, 1, 2, 3, 4, 5, 6, 7].map((k) => columns[i + 8 * k]!));
  return bound;
}

test("the bound that lets the kernels transform samples below 2^11 in i16 lanes (it does not cover 12 bits)", () => {
  expect(transformBound(2047)).toBeLessThan(16411);
  expect(transformBound(4095)).toBeGreaterThan(32767);
});

test("a CPU run's psnr_hvs is PsnrHvsWasm, or PsnrHvsCpu when the TypeScript code is forced", () => {
  expect(psnrHvsFeature.cpu(psnrHvsOptions.resolve({}))).toBeInstanceOf(cpuKernels() === "ts" ? PsnrHvsCpu : PsnrHvsWasm);
  setCpuKernels("ts");
  try {
    expect(psnrHvsFeature.cpu(psnrHvsOptions.resolve({}))).toBeInstanceOf(PsnrHvsCpu);
  } finally {
    setCpuKernels(undefined);
  }
});
