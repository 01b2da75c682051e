import { describe, expect, test } from "bun:test";
import { cpuKernels, setCpuKernels, type PictureFormat, type PicturePair } from "@vq/core";
import { extractedScores, lumaPicture, seededRandom, stridedLuma } from "@vq/core/testing";
import { admOptions, type AdmOptions } from "../definition.ts";
import { admFeature } from "../index.ts";
import { extremePairs, naturalPairs } from "../kernel-test-pictures.ts";
import { exactness } from "../numerics/exactness.ts";
import { AdmCpu } from "./adm-cpu.ts";
import { SIMD_PROFILES, type SimdProfile } from "./adm-pipeline.ts";
import { AdmWasm, layOut } from "./adm-wasm.ts";
import { ADM_KERNELS_WASM } from "./wasm/adm-kernels.wasm.ts";

/**
 * The WebAssembly SIMD kernels against the TypeScript reference (ADR 0040), every output
 * (debug on), on inputs the golden pairs do not reach: odd and smallest sizes, 8 to 16
 * bits, widths where libvmaf's x86 DWT overshoots, full-scale edges and noise (int16
 * wrap-arounds, sums past 2^52, the reference's BigInt paths), every option that changes
 * the arithmetic, and each SIMD profile. parity-wasm.test.ts holds the kernels to libvmaf.
 */
const module = new WebAssembly.Module(Buffer.from(ADM_KERNELS_WASM, "base64"));

function expectSame(options: Partial<AdmOptions>, pairs: PicturePair[], simd: SimdProfile = SIMD_PROFILES.avx512): void {
  const o = admOptions.resolve({ debug: true, ...options });
  const wasm = extractedScores(new AdmWasm(o, module, simd), pairs);
  const reference = extractedScores(new AdmCpu(o, simd), pairs);
  expect(Object.keys(wasm).length).toBe(18);
  expect(wasm).toEqual(reference);
}

const sizes: [string, number, number, number][] = [
  ["odd size 8-bit", 8, 61, 37],
  ["odd size 10-bit", 10, 45, 53],
  ["12-bit", 12, 70, 40],
  ["16-bit (no SIMD vertical pass at scale 0)", 16, 48, 34],
  ["the smallest adm takes", 8, 33, 33],
  ["8-bit, scale 0's last column in an AVX-512 chunk (half width 33)", 8, 65, 40],
  ["10-bit, scale 0's last column in an AVX-512 chunk (half width 65)", 10, 129, 36],
  ["scale 1's last column in a chunk of 8 (half width 9, 17)", 8, 34, 70],
  ["wider than the SIMD steps, odd", 8, 203, 47],
];

describe("AdmWasm (WebAssembly SIMD) against AdmCpu (TypeScript)", () => {
  for (const [name, bitDepth, width, height] of sizes) {
    test(`${name}: ${width}x${height}, natural and extreme content`, () => {
      const format: PictureFormat = { width, height, bitDepth, pixelFormat: "420" };
      expectSame({}, naturalPairs(format, width * 31 + bitDepth));
      expectSame({}, extremePairs(format, width + height));
    });
  }

  test("every libvmaf build's DWT (C, AVX2, AVX-512) at widths where they differ", () => {
    for (const [bitDepth, width] of [
      [8, 65],
      [8, 66],
      [10, 129],
      [12, 34],
    ] as const) {
      const format: PictureFormat = { width, height: 38, bitDepth, pixelFormat: "420" };
      for (const simd of Object.values(SIMD_PROFILES)) expectSame({}, naturalPairs(format, width), simd);
    }
  });

  test("options: gain limits (integer and not), CSF modes and viewing conditions, noise weight, skipping AIM or scale 0", () => {
    const format: PictureFormat = { width: 83, height: 51, bitDepth: 10, pixelFormat: "420" };
    const pairs = [...naturalPairs(format, 5), ...extremePairs(format, 6).slice(0, 2)];
    const optionSets: Partial<AdmOptions>[] = [
      { adm_enhn_gain_limit: 1 },
      { adm_enhn_gain_limit: 1.2 },
      { adm_enhn_gain_limit: 37.5 },
      { adm_csf_mode: 1, adm_csf_scale: 1.3, adm_csf_diag_scale: 0.7 },
      { adm_csf_mode: 2, adm_dlm_weight: 0.7, adm_enhn_gain_limit: 1, adm_noise_weight: 0.02, adm_min_val: 0.5 },
      { adm_csf_mode: 3, adm_ref_display_height: 2160, adm_norm_view_dist: 1.5 },
      { adm_norm_view_dist: 5, adm_ref_display_height: 720 },
      { adm_noise_weight: 0 },
      { adm_skip_aim: true },
      { adm_skip_scale0: true },
    ];
    for (const options of optionSets) expectSame(options, pairs);
  });

  test("a 4K-wide extreme row (masking row sums past 2^52, the reference's BigInt rows)", () => {
    const format: PictureFormat = { width: 3840, height: 34, bitDepth: 8, pixelFormat: "420" };
    const before = exactness.rowsInBigInt;
    expectSame({}, extremePairs(format, 9).slice(0, 2));
    expect(exactness.rowsInBigInt).toBeGreaterThan(before);
  });

  test("a plane whose rows are longer than its width (a decoder's stride)", () => {
    const format: PictureFormat = { width: 40, height: 36, bitDepth: 8, pixelFormat: "420" };
    const random = seededRandom(3);
    const ref = lumaPicture(format, () => random() * 255);
    const dist = lumaPicture(format, () => random() * 255);
    const o = admOptions.resolve({ debug: true });
    expect(extractedScores(new AdmWasm(o, module), [{ ref: stridedLuma(ref, 48), dist: stridedLuma(dist, 48) }])).toEqual(extractedScores(new AdmCpu(o), [{ ref, dist }]));
  });
});

test("a CPU run's adm (the catalogue's loader) is AdmWasm, or AdmCpu when the TypeScript code is forced", () => {
  expect(admFeature.cpu(admOptions.resolve())).toBeInstanceOf(cpuKernels() === "ts" ? AdmCpu : AdmWasm);
  setCpuKernels("ts");
  try {
    expect(admFeature.cpu(admOptions.resolve())).toBeInstanceOf(AdmCpu);
  } finally {
    setCpuKernels(undefined);
  }
});

describe("the kernels' memory layout of large pictures", () => {
  test("keeps its regions in order and 16-byte aligned past 2^31 bytes", () => {
    // 12288x9000 8-bit: ~2.5 GiB of kernel memory, addresses past 2^31 (a 32-bit & ~15 made them negative)
    for (const [width, height, bitDepth] of [[12288, 9000, 8], [9600, 9600, 10], [1920, 1080, 8]] as const) {
      const layout = layOut(4096, width, height, bitDepth);
      const regions = Object.entries(layout).filter(([name]) => name !== "end" && name !== "band16" && name !== "band32");
      let previous = 4096;
      for (const [name, at] of regions) {
        expect({ name, at: at % 16 }).toEqual({ name, at: 0 });
        expect(at).toBeGreaterThanOrEqual(previous);
        previous = at;
      }
      expect(layout.end).toBeGreaterThan(previous);
      if (width > 9000) expect(layout.end).toBeGreaterThan(2 ** 31);
    }
  });

  test("past the 4 GiB a WebAssembly memory can hold, init fails as out of memory instead of wrapping", () => {
    const e = new AdmWasm(admOptions.resolve({}), module);
    expect(() => e.init({ width: 16384, height: 16384, bitDepth: 8, pixelFormat: "420" })).toThrow(/^out of memory: WebAssembly kernels' memory of \d+ MiB is past the 4096 MiB one can hold \(VQ_CPU_KERNELS=ts/);
  });
});
