import { describe, expect, test } from "bun:test";
import { cpuKernels, setCpuKernels, type PictureFormat, type PicturePair } from "@vq/core";
import { extractedScores, lumaPicture, seededRandom, stridedLuma } from "@vq/core/testing";
import { vifOptions, type VifOptions } from "../definition.ts";
import { VifCpu } from "./vif-cpu.ts";
import { vifCpuFeature } from "./vif-feature-cpu.ts";
import { VifWasm } from "./vif-wasm.ts";
import { VIF_KERNELS_WASM } from "./wasm/vif-kernels.wasm.ts";

/**
 * The WebAssembly SIMD kernels against the TypeScript reference (ADR 0040), every output
 * (debug on), on inputs the golden pairs do not reach: odd and tiny sizes, depths 8 to 16,
 * noise, full-scale edges and flat or maximal pictures. The parity tests (parity-wasm.test.ts)
 * hold the kernels to libvmaf itself.
 */
const module = new WebAssembly.Module(Buffer.from(VIF_KERNELS_WASM, "base64"));



function expectSame(options: Partial<VifOptions>, pairs: PicturePair[]): void {
  const o = vifOptions.resolve({ debug: true, ...options });
  const wasm = extractedScores(new VifWasm(o, module), pairs);
  const reference = extractedScores(new VifCpu(o), pairs);
  expect(Object.keys(wasm).length).toBeGreaterThan(10);
  expect(wasm).toEqual(reference);
}

const cases: [string, number, number, number][] = [
  ["odd size 8-bit", 8, 61, 37],
  ["odd size 10-bit", 10, 45, 33],
  ["12-bit", 12, 40, 32],
  ["16-bit", 16, 36, 34],
  ["smallest (each scale wider than its filter reaches)", 8, 33, 33],
  ["the smallest vif takes (scale 3 is 2x2)", 8, 16, 16],
  ["just above it, 10-bit", 10, 17, 19],
  ["8-bit, width a multiple of 8 plus 1", 8, 129, 40],
];

describe("VifWasm (WebAssembly SIMD) against VifCpu (TypeScript)", () => {
  for (const [name, bitDepth, width, height] of cases) {
    test(`${name}: ${width}x${height}, noise and structure, two frames`, () => {
      const format: PictureFormat = { width, height, bitDepth, pixelFormat: "420" };
      const max = 2 ** bitDepth - 1;
      const random = seededRandom(width * 31 + bitDepth);
      const ref = lumaPicture(format, (x, y) => max * (0.5 + 0.4 * Math.sin(x / 3) * Math.cos(y / 5)) + (random() - 0.5) * max * 0.2);
      const dist = lumaPicture(format, (x, y) => max * (0.5 + 0.3 * Math.sin(x / 3 + 0.2) * Math.cos(y / 5)) + (random() - 0.5) * max * 0.3);
      const noise = lumaPicture(format, () => random() * max);
      expectSame({}, [{ ref, dist }, { ref: noise, dist: ref }]);
      expectSame({ vif_enhn_gain_limit: 1 }, [{ ref: dist, dist: ref }]);
    });
  }

  test("full-scale edges, maximal and flat pictures at 8 and 16 bits (the fixed point's limits)", () => {
    for (const bitDepth of [8, 16]) {
      const format: PictureFormat = { width: 70, height: 50, bitDepth, pixelFormat: "444" };
      const max = 2 ** bitDepth - 1;
      const checker = lumaPicture(format, (x, y) => (((x >> 1) + (y >> 1)) & 1 ? max : 0));
      const stripes = lumaPicture(format, (x) => (x & 1 ? max : 0));
      const full = lumaPicture(format, () => max);
      const zero = lumaPicture(format, () => 0);
      expectSame({}, [{ ref: checker, dist: stripes }, { ref: full, dist: zero }, { ref: checker, dist: checker }, { ref: zero, dist: full }]);
    }
  });

  test("vif_skip_scale0", () => {
    const format: PictureFormat = { width: 64, height: 48, bitDepth: 8, pixelFormat: "420" };
    const random = seededRandom(7);
    const ref = lumaPicture(format, () => random() * 255);
    const dist = lumaPicture(format, (x) => x * 4);
    expectSame({ vif_skip_scale0: true }, [{ ref, dist }]);
  });

  test("a plane whose rows are longer than its width (a decoder's stride)", () => {
    const format: PictureFormat = { width: 40, height: 36, bitDepth: 8, pixelFormat: "420" };
    const random = seededRandom(3);
    const ref = lumaPicture(format, () => random() * 255);
    const dist = lumaPicture(format, () => random() * 255);
    const o = vifOptions.resolve({ debug: true });
    expect(extractedScores(new VifWasm(o, module), [{ ref: stridedLuma(ref, 48), dist: stridedLuma(dist, 48) }])).toEqual(extractedScores(new VifCpu(o), [{ ref, dist }]));
  });
});

test("a CPU run's vif (the catalogue's loader) is VifWasm, or VifCpu when the TypeScript code is forced", () => {
  expect(vifCpuFeature.cpu(vifOptions.resolve())).toBeInstanceOf(cpuKernels() === "ts" ? VifCpu : VifWasm);
  setCpuKernels("ts");
  try {
    expect(vifCpuFeature.cpu(vifOptions.resolve())).toBeInstanceOf(VifCpu);
  } finally {
    setCpuKernels(undefined);
  }
});
