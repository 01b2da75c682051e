import { describe, expect, test } from "bun:test";
import { cpuKernels, setCpuKernels, type PictureFormat, type PicturePair } from "@vq/core";
import { extractedScores, lumaPicture, seededRandom, stridedLuma } from "@vq/core/testing";
import { firstFramePair } from "../../../../tools/bench-tasks.ts";
import { floatMsSsimOptions, type FloatMsSsimOptions } from "../float-ms-ssim-definition.ts";
import { floatSsimOptions, type FloatSsimOptions } from "../float-ssim-definition.ts";
import { msSsimFeature, ssimFeature } from "../index.ts";
import { boxDecimate } from "../numerics/box-decimate.ts";
import { decimatedSize } from "../numerics/decimation-geometry.ts";
import { SsimStatistics, type SsimMeans } from "../numerics/ssim-statistics.ts";
import { waveletDecimate } from "../numerics/wavelet-decimate.ts";
import { FloatMsSsimCpu } from "./float-ms-ssim-cpu.ts";
import { FloatMsSsimWasm } from "./float-ms-ssim-wasm.ts";
import { FloatSsimCpu } from "./float-ssim-cpu.ts";
import { FloatSsimWasm } from "./float-ssim-wasm.ts";
import { SsimWasmWorkspace } from "./ssim-wasm-workspace.ts";
import { SSIM_KERNELS_WASM } from "./wasm/ssim-kernels.wasm.ts";

/**
 * The WebAssembly SIMD kernels against the TypeScript reference (ADR 0040): the same
 * doubles, not merely close ones. The scores are means rounded to float, which would hide
 * a last-bit difference in a sum, so the kernels are also held to the reference's double
 * sums over a map and to its decimated float planes, on arbitrary floats (not only luma
 * values). parity-wasm.test.ts holds them to libvmaf itself.
 */
const module = new WebAssembly.Module(Buffer.from(SSIM_KERNELS_WASM, "base64"));

function ssimSame(options: Partial<FloatSsimOptions>, pairs: PicturePair[]): void {
  const o = floatSsimOptions.resolve({ enable_lcs: true, ...options });
  const wasm = extractedScores(new FloatSsimWasm(o, module), pairs);
  expect(Object.keys(wasm).length).toBe(4);
  expect(wasm).toEqual(extractedScores(new FloatSsimCpu(o), pairs));
}

function msSsimSame(options: Partial<FloatMsSsimOptions>, pairs: PicturePair[]): void {
  const o = floatMsSsimOptions.resolve({ enable_lcs: true, ...options });
  const wasm = extractedScores(new FloatMsSsimWasm(o, module), pairs);
  expect(Object.keys(wasm).length).toBe(16);
  expect(wasm).toEqual(extractedScores(new FloatMsSsimCpu(o), pairs));
}

/** A structured pair with noise, and a noise picture, at this format. */
function pictures(format: PictureFormat, seed: number): PicturePair[] {
  const max = 2 ** format.bitDepth - 1;
  const random = seededRandom(seed);
  const ref = lumaPicture(format, (x, y) => max * (0.5 + 0.4 * Math.sin(x / 3) * Math.cos(y / 5)) + (random() - 0.5) * max * 0.2);
  const dist = lumaPicture(format, (x, y) => max * (0.5 + 0.3 * Math.sin(x / 3 + 0.2) * Math.cos(y / 5)) + (random() - 0.5) * max * 0.3);
  const noise = lumaPicture(format, () => random() * max);
  return [{ ref, dist }, { ref: noise, dist: ref }];
}

describe("float_ssim: FloatSsimWasm against FloatSsimCpu", () => {
  const cases: [string, number, number, number, number][] = [
    ["odd size 8-bit, no downscaling", 8, 61, 37, 1],
    ["10-bit, outW a multiple of 4 plus 1", 10, 56, 30, 1],
    ["12-bit, factor 2 on odd sizes", 12, 47, 33, 2],
    ["16-bit, factor 3", 16, 70, 44, 3],
    ["8-bit, factor 4 (1080p's automatic factor)", 8, 90, 61, 4],
    ["10-bit, factor 5, the smallest picture it takes", 10, 51, 55, 5],
    ["8-bit, the smallest picture (11x11)", 8, 11, 11, 1],
    ["8-bit, automatic factor 2 (min side 384..639)", 8, 400, 387, 0],
  ];
  for (const [name, bitDepth, width, height, scale] of cases) {
    test(`${name}: ${width}x${height}`, () => {
      ssimSame({ scale }, pictures({ width, height, bitDepth, pixelFormat: "420" }, width * 7 + bitDepth));
    });
  }

  test("a plane whose rows are longer than its width (a decoder's stride), dB and clipping", () => {
    const format: PictureFormat = { width: 41, height: 36, bitDepth: 8, pixelFormat: "420" };
    const [pair] = pictures(format, 5);
    const o = floatSsimOptions.resolve({ enable_lcs: true, enable_db: true, clip_db: true });
    const strided = { ref: stridedLuma(pair!.ref, 48), dist: stridedLuma(pair!.dist, 53) };
    expect(extractedScores(new FloatSsimWasm(o, module), [strided])).toEqual(extractedScores(new FloatSsimCpu(o), [pair!]));
  });

  test("full-scale edges, identical, flat and inverted pictures", () => {
    const format: PictureFormat = { width: 37, height: 29, bitDepth: 10, pixelFormat: "444" };
    const checker = lumaPicture(format, (x, y) => (((x >> 1) + (y >> 1)) & 1 ? 1023 : 0));
    const inverted = lumaPicture(format, (x, y) => (((x >> 1) + (y >> 1)) & 1 ? 0 : 1023));
    const flat = lumaPicture(format, () => 512);
    const zero = lumaPicture(format, () => 0);
    ssimSame({ scale: 1 }, [{ ref: checker, dist: inverted }, { ref: checker, dist: checker }, { ref: flat, dist: zero }, { ref: zero, dist: zero }]);
  });
});

/** MS-SSIM's pairs: pure noise against structure has a negative mean structure at some scale (no score). */
function msPictures(format: PictureFormat, seed: number): PicturePair[] {
  const [pair] = pictures(format, seed);
  const max = 2 ** format.bitDepth - 1;
  const random = seededRandom(seed + 1);
  const noisy = lumaPicture(format, (x, y) => max * (0.5 + 0.4 * Math.sin(x / 3) * Math.cos(y / 5)) + (random() - 0.5) * max * 0.6);
  return [pair!, { ref: pair!.ref, dist: noisy }];
}

describe("float_ms_ssim: FloatMsSsimWasm against FloatMsSsimCpu", () => {
  test("8-bit 181x179 (odd sizes at every scale) and 10-bit 200x176 (the smallest height)", () => {
    msSsimSame({}, msPictures({ width: 181, height: 179, bitDepth: 8, pixelFormat: "420" }, 11));
    msSsimSame({ enable_db: true }, msPictures({ width: 200, height: 176, bitDepth: 10, pixelFormat: "420" }, 12));
  });

  test("12- and 16-bit, 190x183", () => {
    for (const bitDepth of [12, 16]) msSsimSame({}, msPictures({ width: 190, height: 183, bitDepth, pixelFormat: "444" }, bitDepth));
  });
});

test("golden frames: the first 576x324 and 1920x1080 frame pairs give the reference's scores", async () => {
  for (const name of ["nat_576x324.x264crf45", "nat_1920x1080.x264crf35"]) {
    const pair = await firstFramePair(name);
    ssimSame({}, [pair]);
    msSsimSame({}, [pair]);
  }
}, 30_000);

/** Arbitrary floats (not only luma values), a little structure so windows are not all noise. */
function floats(n: number, seed: number, max = 255): Float32Array {
  const random = seededRandom(seed);
  return Float32Array.from({ length: n }, (_, i) => Math.fround(max * (0.5 + 0.3 * Math.sin(i / 7)) * random() + random() * 40));
}

describe("the kernels against the reference's functions, on arbitrary floats", () => {
  test("the SSIM map's double sums, every width modulo 4, including anti-correlated and identical planes", () => {
    for (const [width, height] of [[11, 11], [12, 13], [13, 17], [14, 12], [31, 22], [64, 40]] as const) {
      const ref = floats(width * height, width);
      const cmps = [floats(width * height, height + 100), ref.map((v) => 255 - v), ref.slice()];
      for (const cmp of cmps) {
        const workspace = new SsimWasmWorkspace(module, width, height, width);
        const a = workspace.plane(width, height);
        const b = workspace.plane(width, height);
        workspace.ready();
        workspace.view(a).set(ref);
        workspace.view(b).set(cmp);
        const wasmMeans: SsimMeans = { ssim: 0, l: 0, c: 0, s: 0 };
        const tsMeans: SsimMeans = { ssim: 0, l: 0, c: 0, s: 0 };
        workspace.statistics(a, b, wasmMeans);
        const reference = new SsimStatistics(width);
        reference.compute(ref, cmp, width, height, tsMeans);
        expect({ ...workspace.sums }).toEqual({ ...reference.sums });
        expect(wasmMeans).toEqual(tsMeans);
      }
    }
  });

  test("wavelet decimation: every output sample, borders and interior, odd and even sizes", () => {
    for (const [width, height] of [[9, 9], [20, 11], [27, 30], [45, 23]] as const) {
      const ref = floats(width * height, 3 * width, 300);
      const cmp = floats(width * height, 5 * height);
      const outW = decimatedSize(width, 2);
      const outH = decimatedSize(height, 2);
      const workspace = new SsimWasmWorkspace(module, width, height, width);
      const [a, b, c, d] = [workspace.plane(width, height), workspace.plane(width, height), workspace.plane(outW, outH), workspace.plane(outW, outH)];
      workspace.ready();
      workspace.view(a).set(ref);
      workspace.view(b).set(cmp);
      workspace.waveletDecimate(a, b, c, d);
      const tsRef = new Float32Array(outW * outH);
      const tsCmp = new Float32Array(outW * outH);
      waveletDecimate(ref, cmp, width, height, tsRef, tsCmp);
      expect(workspace.view(c)).toEqual(tsRef);
      expect(workspace.view(d)).toEqual(tsCmp);
    }
  });

  test("box decimation, factors 2 to 10 on odd and even output sizes", () => {
    for (const [width, height] of [[53, 41], [60, 40]] as const) {
      const ref = floats(width * height, 9);
      const cmp = floats(width * height, 10);
      for (let factor = 2; factor <= 10; factor++) {
        const outW = decimatedSize(width, factor);
        const outH = decimatedSize(height, factor);
        const workspace = new SsimWasmWorkspace(module, width, height, width);
        const [a, b, c, d] = [workspace.plane(width, height), workspace.plane(width, height), workspace.plane(outW, outH), workspace.plane(outW, outH)];
        workspace.ready();
        workspace.view(a).set(ref);
        workspace.view(b).set(cmp);
        workspace.boxDecimate(a, b, factor, c, d);
        const tsRef = new Float32Array(outW * outH);
        const tsCmp = new Float32Array(outW * outH);
        boxDecimate(ref, width, height, factor, tsRef);
        boxDecimate(cmp, width, height, factor, tsCmp);
        expect(workspace.view(c)).toEqual(tsRef);
        expect(workspace.view(d)).toEqual(tsCmp);
      }
    }
  });
});

test("a CPU run's float_ssim and float_ms_ssim are the WebAssembly ones, or the TypeScript ones when forced", () => {
  const wasm = cpuKernels() !== "ts";
  expect(ssimFeature.cpu(floatSsimOptions.resolve())).toBeInstanceOf(wasm ? FloatSsimWasm : FloatSsimCpu);
  expect(msSsimFeature.cpu(floatMsSsimOptions.resolve())).toBeInstanceOf(wasm ? FloatMsSsimWasm : FloatMsSsimCpu);
  setCpuKernels("ts");
  try {
    expect(ssimFeature.cpu(floatSsimOptions.resolve())).toBeInstanceOf(FloatSsimCpu);
    expect(msSsimFeature.cpu(floatMsSsimOptions.resolve())).toBeInstanceOf(FloatMsSsimCpu);
  } finally {
    setCpuKernels(undefined);
  }
});
