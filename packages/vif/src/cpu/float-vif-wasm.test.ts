import { describe, expect, test } from "bun:test";
import { cpuKernels, setCpuKernels, type PictureFormat, type PicturePair } from "@vq/core";
import { extractedScores, lumaPicture, seededRandom, stridedLuma } from "@vq/core/testing";
import { floatVifOptions, type FloatVifOptions } from "../float-vif-definition.ts";
import { floatVifFeature } from "../index.ts";
import { FloatVifCpu } from "./float-vif-cpu.ts";
import { FloatVifWasm } from "./float-vif-wasm.ts";
import { FLOAT_VIF_KERNELS_WASM } from "./wasm/float-vif-kernels.wasm.ts";

/**
 * float_vif's WebAssembly SIMD kernels against the TypeScript reference (ADR 0040): the
 * same doubles for every output (debug on), on inputs the golden pairs do not reach: odd
 * and tiny sizes, depths 8 to 16, other kernel scales, prescaling, noise variances and gain
 * limits, and flat or maximal pictures. parity-wasm.test.ts holds the kernels to libvmaf.
 */
const module = new WebAssembly.Module(Buffer.from(FLOAT_VIF_KERNELS_WASM, "base64"));

function expectSame(options: Partial<FloatVifOptions>, pairs: PicturePair[]): void {
  const o = floatVifOptions.resolve({ debug: true, ...options });
  const wasm = extractedScores(new FloatVifWasm(o, module), pairs);
  const reference = extractedScores(new FloatVifCpu(o), pairs);
  expect(Object.keys(wasm).length).toBeGreaterThan(10);
  expect(wasm).toEqual(reference);
}

function naturalPairs(format: PictureFormat, seed: number): PicturePair[] {
  const max = 2 ** format.bitDepth - 1;
  const random = seededRandom(seed);
  const ref = lumaPicture(format, (x, y) => max * (0.5 + 0.4 * Math.sin(x / 3) * Math.cos(y / 5)) + (random() - 0.5) * max * 0.2);
  const dist = lumaPicture(format, (x, y) => max * (0.5 + 0.3 * Math.sin(x / 3 + 0.2) * Math.cos(y / 5)) + (random() - 0.5) * max * 0.3);
  const noise = lumaPicture(format, () => random() * max);
  return [
    { ref, dist },
    { ref: noise, dist: ref },
  ];
}

const cases: [string, number, number, number][] = [
  ["odd size 8-bit", 8, 61, 37],
  ["odd size 10-bit", 10, 45, 33],
  ["12-bit", 12, 40, 32],
  ["16-bit", 16, 36, 34],
  ["the smallest float_vif takes", 8, 32, 32],
  ["width a multiple of 4 plus 1", 8, 129, 40],
  ["width a multiple of 8 plus 3", 8, 67, 35],
];

describe("FloatVifWasm (WebAssembly SIMD) against FloatVifCpu (TypeScript)", () => {
  for (const [name, bitDepth, width, height] of cases) {
    test(`${name}: ${width}x${height}, noise and structure, two frames`, () => {
      const format: PictureFormat = { width, height, bitDepth, pixelFormat: "420" };
      expectSame({}, naturalPairs(format, width * 31 + bitDepth));
    });
  }

  test("options: gain limit, noise variance, min values, skip scale 0", () => {
    const pairs = naturalPairs({ width: 70, height: 52, bitDepth: 8, pixelFormat: "420" }, 5);
    expectSame({ vif_enhn_gain_limit: 1 }, pairs);
    expectSame({ vif_sigma_nsq: 0.7 }, pairs);
    expectSame({ vif_sigma_nsq: 4.3, vif_enhn_gain_limit: 1.5 }, pairs);
    expectSame({ vif_scale1_min_val: 0.9, vif_scale3_min_val: 0.95 }, pairs);
    expectSame({ vif_skip_scale0: true }, pairs);
  });

  test("other kernel scales (longer and shorter filters than the pad of 8)", () => {
    const pairs = naturalPairs({ width: 96, height: 80, bitDepth: 8, pixelFormat: "420" }, 9);
    for (const vif_kernelscale of [0.5, 1.5, 2, 3.75 / 3]) expectSame({ vif_kernelscale }, pairs);
  });

  test("prescaling, each method", () => {
    const pairs = naturalPairs({ width: 75, height: 61, bitDepth: 10, pixelFormat: "420" }, 11);
    expectSame({ vif_prescale: 0.75, vif_prescale_method: "nearest" }, pairs);
    expectSame({ vif_prescale: 1.5, vif_prescale_method: "bilinear" }, pairs);
    expectSame({ vif_prescale: 1.25, vif_prescale_method: "bicubic" }, pairs);
    expectSame({ vif_prescale: 0.9, vif_prescale_method: "lanczos4" }, pairs);
  });

  test("full-scale edges, maximal and flat pictures at 8 and 16 bits", () => {
    for (const bitDepth of [8, 16]) {
      const format: PictureFormat = { width: 70, height: 50, bitDepth, pixelFormat: "444" };
      const max = 2 ** bitDepth - 1;
      const checker = lumaPicture(format, (x, y) => (((x >> 1) + (y >> 1)) & 1 ? max : 0));
      const stripes = lumaPicture(format, (x) => (x & 1 ? max : 0));
      const full = lumaPicture(format, () => max);
      const zero = lumaPicture(format, () => 0);
      expectSame({}, [
        { ref: checker, dist: stripes },
        { ref: full, dist: zero },
        { ref: checker, dist: checker },
        { ref: zero, dist: full },
      ]);
    }
  });

  test("a plane whose rows are longer than its width (a decoder's stride)", () => {
    const format: PictureFormat = { width: 40, height: 36, bitDepth: 8, pixelFormat: "420" };
    const random = seededRandom(3);
    const ref = lumaPicture(format, () => random() * 255);
    const dist = lumaPicture(format, () => random() * 255);
    const o = floatVifOptions.resolve({ debug: true });
    expect(extractedScores(new FloatVifWasm(o, module), [{ ref: stridedLuma(ref, 48), dist: stridedLuma(dist, 48) }])).toEqual(extractedScores(new FloatVifCpu(o), [{ ref, dist }]));
  });
});

test("a CPU run's float_vif is FloatVifWasm, or FloatVifCpu when the TypeScript code is forced", () => {
  expect(floatVifFeature.cpu(floatVifOptions.resolve())).toBeInstanceOf(cpuKernels() === "ts" ? FloatVifCpu : FloatVifWasm);
  setCpuKernels("ts");
  try {
    expect(floatVifFeature.cpu(floatVifOptions.resolve())).toBeInstanceOf(FloatVifCpu);
  } finally {
    setCpuKernels(undefined);
  }
});
