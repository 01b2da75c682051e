import { describe, expect, test } from "bun:test";
import { cpuKernels, setCpuKernels, type PictureFormat, type PicturePair } from "@vq/core";
import { extractedScores, lumaPicture, seededRandom, stridedLuma } from "@vq/core/testing";
import { floatAdmOptions, type FloatAdmOptions } from "../float-adm-definition.ts";
import { floatAdmFeature } from "../index.ts";
import { extremePairs, naturalPairs } from "../kernel-test-pictures.ts";
import { FloatAdmCpu } from "./float-adm-cpu.ts";
import { FloatAdmWasm, layOut } from "./float-adm-wasm.ts";
import { FLOAT_ADM_KERNELS_WASM } from "./wasm/float-adm-kernels.wasm.ts";

/**
 * float_adm's WebAssembly SIMD kernels against the TypeScript reference (ADR 0040): the
 * same doubles for every output (debug on), on inputs the golden pairs do not reach: the
 * smallest and odd sizes (band widths of every residue modulo 4 at every scale, score
 * regions reaching the mirrored edges), 8 to 16 bits, full-scale and flat pictures, strided
 * planes, and every option that changes the kernels' work. parity-wasm.test.ts holds the
 * kernels to libvmaf.
 */
const module = new WebAssembly.Module(Buffer.from(FLOAT_ADM_KERNELS_WASM, "base64"));

function expectSame(options: Partial<FloatAdmOptions>, pairs: PicturePair[]): void {
  const o = floatAdmOptions.resolve({ debug: true, ...options });
  const wasm = extractedScores(new FloatAdmWasm(o, module), pairs);
  const reference = extractedScores(new FloatAdmCpu(o), pairs);
  expect(Object.keys(wasm).length).toBe(18);
  expect(wasm).toEqual(reference);
}

/** The band widths at scales 0..3 are in the names: each residue modulo 4 appears at each scale. */
const sizes: [string, number, number, number][] = [
  ["the smallest float_adm takes (bands 17, 9, 5, 3)", 8, 33, 33],
  ["odd size 8-bit (bands 31, 16, 8, 4)", 8, 61, 37],
  ["odd size 10-bit (bands 23, 12, 6, 3)", 10, 45, 53],
  ["12-bit (bands 35, 18, 9, 5)", 12, 70, 40],
  ["16-bit (bands 24, 12, 6, 3)", 16, 48, 34],
  ["8-bit (bands 42, 21, 11, 6)", 8, 83, 51],
  ["8-bit (bands 19, 10, 5, 3), tall", 8, 38, 90],
  ["10-bit (bands 65, 33, 17, 9)", 10, 129, 36],
  ["wider than the SIMD steps, odd (bands 102, 51, 26, 13)", 8, 203, 47],
  ["12-bit (bands 26, 13, 7, 4)", 12, 52, 66],
];

describe("FloatAdmWasm (WebAssembly SIMD) against FloatAdmCpu (TypeScript)", () => {
  for (const [name, bitDepth, width, height] of sizes) {
    test(`${name}: ${width}x${height}, natural and extreme content`, () => {
      const format: PictureFormat = { width, height, bitDepth, pixelFormat: "420" };
      expectSame({}, naturalPairs(format, width * 31 + bitDepth));
      expectSame({}, extremePairs(format, width + height));
    });
  }

  test("options: gain limits, CSF modes and viewing conditions, weights, noise weight, bypass, skipped scales", () => {
    const format: PictureFormat = { width: 83, height: 51, bitDepth: 10, pixelFormat: "420" };
    const pairs = [...naturalPairs(format, 5), ...extremePairs(format, 6).slice(0, 2)];
    const optionSets: Partial<FloatAdmOptions>[] = [
      { adm_enhn_gain_limit: 1 },
      { adm_enhn_gain_limit: 1.2 },
      { adm_enhn_gain_limit: 37.5 },
      { adm_csf_mode: 1, adm_csf_scale: 1.3, adm_csf_diag_scale: 0.7 },
      { adm_csf_mode: 2 },
      { adm_csf_mode: 2, adm_norm_view_dist: 1.5, adm_ref_display_height: 2160 },
      { adm_csf_mode: 7 },
      { adm_norm_view_dist: 5, adm_ref_display_height: 720 },
      { adm_norm_view_dist: 0.75, adm_ref_display_height: 4320 },
      { adm_noise_weight: 0 },
      { adm_noise_weight: 2.5 },
      { adm_bypass_cm: 1 },
      { adm_skip_scale0: true },
      { adm_skip_scale0: true, adm_skip_aim_scale: 1 },
      { adm_skip_aim_scale: 0 },
      { adm_skip_aim_scale: 3 },
      { adm_f1s0: 0.7, adm_f2s0: 0.3, adm_f1s2: 2.25, adm_f2s3: 0 },
      { adm_f1s1: 10, adm_f2s1: 0.01, adm_f1s3: 0 },
      { adm_adm3_apply_hm: true, adm_dlm_weight: 0.7, adm_min_val: 0.5 },
    ];
    for (const options of optionSets) expectSame(options, pairs);
  });

  test("options on the smallest size, where the regions reach the mirrored edges", () => {
    const format: PictureFormat = { width: 35, height: 33, bitDepth: 8, pixelFormat: "420" };
    const pairs = [...naturalPairs(format, 7), ...extremePairs(format, 8).slice(0, 3)];
    for (const options of [{ adm_enhn_gain_limit: 1 }, { adm_bypass_cm: 1 }, { adm_skip_scale0: true }, { adm_csf_mode: 1 }] as Partial<FloatAdmOptions>[]) {
      expectSame(options, pairs);
    }
  });

  test("a plane whose rows are longer than its width (a decoder's stride), 8 and 10 bits", () => {
    for (const bitDepth of [8, 10]) {
      const format: PictureFormat = { width: 41, height: 36, bitDepth, pixelFormat: "420" };
      const random = seededRandom(3 + bitDepth);
      const max = 2 ** bitDepth - 1;
      const ref = lumaPicture(format, () => random() * max);
      const dist = lumaPicture(format, () => random() * max);
      const o = floatAdmOptions.resolve({ debug: true });
      const strided = [{ ref: stridedLuma(ref, 48), dist: stridedLuma(dist, 52) }];
      expect(extractedScores(new FloatAdmWasm(o, module), strided)).toEqual(extractedScores(new FloatAdmCpu(o), [{ ref, dist }]));
    }
  });

  test("the kernels take only adm_p_norm 3 (cubes); others are the TypeScript code's (powf)", () => {
    expect(() => new FloatAdmWasm(floatAdmOptions.resolve({ adm_p_norm: 2 }), module)).toThrow(/adm_p_norm 2/);
  });
});

test("a CPU run's float_adm (the catalogue's loader) is FloatAdmWasm, or FloatAdmCpu when the TypeScript code is forced or adm_p_norm is not 3", () => {
  expect(floatAdmFeature.cpu(floatAdmOptions.resolve())).toBeInstanceOf(cpuKernels() === "ts" ? FloatAdmCpu : FloatAdmWasm);
  expect(floatAdmFeature.cpu(floatAdmOptions.resolve({ adm_p_norm: 2.5 }))).toBeInstanceOf(FloatAdmCpu);
  setCpuKernels("ts");
  try {
    expect(floatAdmFeature.cpu(floatAdmOptions.resolve())).toBeInstanceOf(FloatAdmCpu);
  } finally {
    setCpuKernels(undefined);
  }
});

describe("the kernels' memory layout", () => {
  test("keeps its regions in order, 16-byte aligned apart from the bands' front room, past 2^31 bytes", () => {
    for (const [width, height, bitDepth] of [[1920, 1080, 8], [12288, 9000, 8], [33, 33, 10]] as const) {
      const at = layOut(4096, width, height, bitDepth);
      expect(at.bandBytes % 16).toBe(0);
      expect(at.stride % 8).toBe(0);
      expect(at.stride).toBeGreaterThanOrEqual(((width + 1) >> 1) + 8);
      const regions = [at.srcRef, at.srcDis, at.tmp, at.tmp + 3 * at.tmpBytes, at.refA, at.disA, at.csfRestored, at.csfAdditive, at.fltRestored, at.fltAdditive, at.out];
      for (let i = 1; i < regions.length; i++) expect(regions[i]!).toBeGreaterThan(regions[i - 1]!);
      expect(at.fltAdditive + 3 * at.bandBytes).toBeLessThanOrEqual(at.out + 16);
      expect(at.end).toBeGreaterThan(at.out);
      if (width > 4000) expect(at.end).toBeGreaterThan(2 ** 31);
    }
  });

  test("past the 4 GiB a WebAssembly memory can hold, init fails as out of memory instead of wrapping", () => {
    const e = new FloatAdmWasm(floatAdmOptions.resolve({}), module);
    expect(() => e.init({ width: 16384, height: 16384, bitDepth: 8, pixelFormat: "420" })).toThrow(/^out of memory: WebAssembly kernels' memory of \d+ MiB is past the 4096 MiB/);
  });
});
