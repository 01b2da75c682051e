import { afterAll, describe, expect, test } from "bun:test";
import { seededRandom } from "@vq/core/testing";
import { CpuBackend, isVqError, memoryReader, packedLayout, scoreVideos, type FeatureCollector, type PictureFormat } from "@vq/core";
import { GpuBackend, type GpuContext } from "@vq/gpu-core";
import { gpuForTests } from "@vq/gpu-core/testing";
import { AdmCpu } from "../cpu/adm-cpu.ts";
import { AdmGpu } from "./adm-gpu.ts";
import { ADM_GROUP_BUDGET_BYTES, admFrameLayout, admGeometry, admGroupFrames } from "./adm-gpu-geometry.ts";
import { PARAM_FIELDS, PARAMS_BYTES, gainParts } from "./adm-gpu-params.ts";
import { SIMD_PROFILES, type SimdProfile } from "../cpu/adm-pipeline.ts";
import { admOptions, type AdmOptions } from "../definition.ts";

/**
 * The GPU twin against the CPU reference on content the golden set lacks: 10-, 12- and
 * 16-bit extremes (hard edges between black and full scale, noise, contrast boosted
 * past the reference so that the enhancement gain applies), odd sizes whose last DWT
 * column falls in libvmaf's vector chunks (so the emulated reads past a row and across
 * frames matter), every option, and the SIMD profiles. Every output of every frame must
 * be the identical double.
 */

/** Deterministic xorshift (an odd seed, as these tests always used). */
const random = (seed: number) => seededRandom(seed | 1);

type Pattern = (x: number, y: number, peak: number, rnd: () => number) => number;

const PATTERNS: Record<string, Pattern> = {
  smooth: (x, y, peak, rnd) => Math.min(peak, Math.max(0, Math.round(peak * (0.5 + 0.3 * Math.sin(x / 5) * Math.cos(y / 7) + 0.1 * (x / 64)) + (rnd() - 0.5) * peak * 0.02))),
  edges: (x, y, peak) => (((x >> 1) + (y >> 1)) % 2 ? peak : 0),
  noise: (_x, _y, peak, rnd) => (rnd() < 0.5 ? peak : 0),
  mixed: (x, y, peak, rnd) => (((x >> 2) + (y >> 3)) % 2 ? peak : Math.floor(rnd() * peak)),
};

/** Luma of `pattern`, optionally with its contrast around mid-grey scaled by `gain` (clipped). */
function frame(format: PictureFormat, pattern: string, seed: number, gain = 1): Uint8Array | Uint16Array {
  const { planes, byteLength } = packedLayout(format);
  const peak = 2 ** format.bitDepth - 1;
  const mid = 2 ** (format.bitDepth - 1);
  const wide = format.bitDepth > 8;
  const data = wide ? new Uint16Array(byteLength / 2) : new Uint8Array(byteLength);
  data.fill(mid);
  const rnd = random(seed);
  const y0 = planes[0]!;
  for (let y = 0; y < format.height; y++) {
    for (let x = 0; x < format.width; x++) {
      const v = PATTERNS[pattern]!(x, y, peak, rnd);
      data[y * y0.stride + x] = Math.min(peak, Math.max(0, Math.round(mid + (v - mid) * gain)));
    }
  }
  return data;
}

/** Three frames: a natural-ish picture boosted in contrast, black/white edges against noise, and a mix. */
function clip(format: PictureFormat): { ref: (Uint8Array | Uint16Array)[]; dist: (Uint8Array | Uint16Array)[] } {
  return {
    ref: [frame(format, "smooth", 1), frame(format, "edges", 2), frame(format, "mixed", 3)],
    dist: [frame(format, "smooth", 1, 1.6), frame(format, "noise", 4), frame(format, "smooth", 5)],
  };
}

async function score(format: PictureFormat, options: AdmOptions, simd: SimdProfile, gpu?: GpuContext): Promise<FeatureCollector> {
  const { ref, dist } = clip(format);
  const backend = gpu ? new GpuBackend(gpu, [new AdmGpu(options, simd)]) : new CpuBackend([new AdmCpu(options, simd)]);
  const { collector, frames } = await scoreVideos(memoryReader("ref", format, ref), memoryReader("dist", format, dist), backend);
  expect(frames).toBe(3);
  return collector;
}

let comparedValues = 0;

/** Every per-frame output on the GPU is the CPU's double; returns how many were compared. */
async function expectSame(format: PictureFormat, overrides: Partial<AdmOptions>, simd: SimdProfile = SIMD_PROFILES.avx512): Promise<number> {
  const options = admOptions.resolve({ ...overrides, debug: true });
  const cpu = await score(format, options, simd);
  const gpu = await score(format, options, simd, gpuContext!);
  let compared = 0;
  for (let i = 0; i < 3; i++) {
    const expected = cpu.frame(i);
    expect(expected.length).toBe(18);
    for (const [name, value] of expected) {
      expect({ frame: i, name, value: gpu.get(name, i) }).toEqual({ frame: i, name, value });
      compared++;
    }
  }
  comparedValues += compared;
  return compared;
}

const gpuContext = await gpuForTests();
// the first GPU test compiles the kernels: on lavapipe without a shader cache, minutes
const TIMEOUT = 600_000;
const fmt = (width: number, height: number, bitDepth: number): PictureFormat => ({ width, height, bitDepth, pixelFormat: "420" });

describe.skipIf(!gpuContext)("adm on the GPU equals the CPU reference", () => {
  afterAll(() => console.log(`adm GPU vs CPU: ${comparedValues} synthetic values compared, all identical`));
  for (const bitDepth of [8, 10, 12, 16]) {
    // 65 wide: the 8-bit scale-0 kernel's last column and scale 2's read past their rows;
    // 129 wide: the 10..16-bit scale-0 kernel's does
    for (const [w, h] of [
      [65, 41],
      [129, 37],
    ] as const) {
      test(`${bitDepth}-bit ${w}x${h}, default options`, () => expectSame(fmt(w, h, bitDepth), {}), TIMEOUT);
    }
  }

  test("8-bit 66x50 (even width reading past the row), the smallest size 33x33", async () => {
    await expectSame(fmt(66, 50, 8), {});
    await expectSame(fmt(33, 33, 8), {});
  }, TIMEOUT);

  const optionSets: Partial<AdmOptions>[] = [
    { adm_csf_mode: 2, adm_dlm_weight: 0.7, adm_enhn_gain_limit: 1, adm_noise_weight: 0.02, adm_min_val: 0.5 },
    { adm_csf_mode: 1, adm_norm_view_dist: 4.5, adm_ref_display_height: 1440, adm_csf_scale: 1.3, adm_csf_diag_scale: 0.7 },
    { adm_csf_mode: 3, adm_norm_view_dist: 5, adm_ref_display_height: 720, adm_enhn_gain_limit: 1.2345 },
    { adm_skip_aim: true, adm_enhn_gain_limit: 1.0000001 },
    // r * 4/3 in double rounds up to an integer for every r = 3k (see float-emulation.test.ts)
    { adm_enhn_gain_limit: 4 / 3, adm_dlm_weight: 0.2 },
    { adm_skip_scale0: true, adm_noise_weight: 0, adm_min_val: 1 },
  ];
  for (const options of optionSets) {
    test(`options ${JSON.stringify(options)}: 8-bit and 16-bit 67x45`, async () => {
      await expectSame(fmt(67, 45, 8), options);
      await expectSame(fmt(67, 45, 16), options);
    }, TIMEOUT);
  }

  test("the SIMD profiles of AdmCpu (C and AVX2 builds) too", async () => {
    for (const simd of [SIMD_PROFILES.c, SIMD_PROFILES.avx2]) {
      await expectSame(fmt(65, 41, 8), {}, simd);
      await expectSame(fmt(129, 37, 16), {}, simd);
    }
    // AVX2, 16-bit, 33 and 34 wide: scale 0's last column reads what the previous frame left
    await expectSame(fmt(33, 40, 16), {}, SIMD_PROFILES.avx2);
    await expectSame(fmt(34, 40, 16), {}, SIMD_PROFILES.avx2);
  }, TIMEOUT);
});

describe.skipIf(!gpuContext)("the batch size changes no adm result", () => {
  // 10 frames: batches of 1, 3 (3+3+3+1) and 8 (8+2) frames, and 8-frame batches whose
  // intermediates hold fewer frames at once (a budget of 1 byte: one frame at a time)
  const frames = 10;
  const patterns = Object.keys(PATTERNS);
  const video = (format: PictureFormat, side: number) =>
    Array.from({ length: frames }, (_, i) => frame(format, patterns[(i + side) % patterns.length]!, 7 * i + side + 1, side ? 1 + (i % 3) * 0.3 : 1));
  const run = async (format: PictureFormat, backend: CpuBackend | GpuBackend) => {
    const { collector, frames: n } = await scoreVideos(memoryReader("ref", format, video(format, 0)), memoryReader("dist", format, video(format, 1)), backend);
    expect(n).toBe(frames);
    return Array.from({ length: frames }, (_, i) => collector.frame(i));
  };
  // 64 wide runs whole batches at once; 66 wide (scale 0's last column reads the previous frame's rows) one frame after the other
  for (const [w, h] of [
    [64, 48],
    [66, 50],
  ] as const) {
    test(`8-bit ${w}x${h}: batches of 1, 3 and 8 frames equal the CPU`, async () => {
      const format = fmt(w, h, 8);
      const options = admOptions.resolve({ debug: true });
      const expected = await run(format, new CpuBackend([new AdmCpu(options)]));
      for (const [batchFrames, budget] of [
        [1, undefined],
        [3, undefined],
        [8, undefined],
        [8, 1],
      ] as const) {
        const stage = new AdmGpu(options, SIMD_PROFILES.avx512, budget);
        const got = await run(format, new GpuBackend(gpuContext!, [stage], { batchFrames }));
        expect({ batchFrames, budget, group: stage.group, got }).toEqual({ batchFrames, budget, group: w === 64 && budget === undefined ? batchFrames : 1, got: expected });
      }
    }, TIMEOUT);
  }
});

test("a batch of 8 at 1080p and of 3 at 4K keeps every frame's intermediates within the budget", () => {
  for (const [w, h, maxBatch] of [
    [1920, 1080, 8],
    [3840, 2160, 3],
  ] as const) {
    // a GPU whose buffers may be large (the H100's); smaller ones cap the group by their limit
    expect({ w, group: admGroupFrames(admFrameLayout(admGeometry(w, h)), maxBatch, 2 ** 31) }).toEqual({ w, group: maxBatch });
  }
  const layout = admFrameLayout(admGeometry(3840, 2160));
  expect(admGroupFrames(layout, 8, 2 ** 31)).toBeLessThan(8);
  expect(admGroupFrames(layout, 3, 4 * layout.bandWords)).toBe(1);
});

test.skipIf(!gpuContext)("what AdmGpu allocates stays within the budget", () => {
  for (const [w, h, maxBatch] of [
    [1920, 1080, 8],
    [3840, 2160, 3],
  ] as const) {
    const stage = new AdmGpu(admOptions.defaults);
    stage.init(gpuContext!, fmt(w, h, 8), maxBatch);
    expect(stage.allocatedBytes).toBeLessThanOrEqual(ADM_GROUP_BUDGET_BYTES + 4096);
    expect(stage.group).toBeGreaterThanOrEqual(1);
    stage.close();
  }
});

describe("what the GPU tests rely on", () => {
  test("the synthetic content reaches the enhancement gain and the emulated reads past a row", async () => {
    // if the boosted contrast never triggered the gain, the non-integer gains above would test nothing
    const scores = async (o: Partial<AdmOptions>, simd: SimdProfile = SIMD_PROFILES.avx512) =>
      (await score(fmt(67, 45, 16), admOptions.resolve({ ...o, debug: true }), simd)).frame(0);
    expect(await scores({ adm_enhn_gain_limit: 1.2345 })).not.toEqual(await scores({ adm_enhn_gain_limit: 1 }));
    const at65 = async (simd: SimdProfile) => {
      const c = await score(fmt(65, 41, 8), admOptions.resolve({ debug: true }), simd);
      return [0, 1, 2].map((i) => c.frame(i));
    };
    expect(await at65(SIMD_PROFILES.avx512)).not.toEqual(await at65(SIMD_PROFILES.c));
  });

  test("the uniform block is read from params.wgsl", () => {
    expect(PARAM_FIELDS.length).toBeGreaterThan(40);
    expect(new Set(PARAM_FIELDS).size).toBe(PARAM_FIELDS.length);
    expect(PARAMS_BYTES % 16).toBe(0);
    expect(PARAM_FIELDS).toContain("gain_shift");
  });

  test("the enhancement gain splits into an exact 53-bit significand and shift", () => {
    for (const gain of [1, 1.0000001, 1.2345, 100, 37.5]) {
      const { hi, lo, shift } = gainParts(gain);
      expect(hi).toBeLessThan(2 ** 21);
      expect(hi).toBeGreaterThanOrEqual(2 ** 20);
      expect((hi * 2 ** 32 + lo) / 2 ** shift).toBe(gain);
    }
  });

  test("bad formats and sizes beyond the GPU's limits are clear errors", () => {
    const fake = { device: { limits: { maxStorageBufferBindingSize: 1 << 20, maxBufferSize: 1 << 20, maxComputeWorkgroupsPerDimension: 65535 } } } as unknown as GpuContext;
    const init = (f: PictureFormat) => {
      try {
        new AdmGpu(admOptions.defaults).init(fake, f);
      } catch (e) {
        return isVqError(e) ? (e as Error).message : `not a VqError: ${e}`;
      }
      return "did not throw";
    };
    expect(init(fmt(1920, 1080, 8))).toContain("more than this GPU allows");
    expect(init(fmt(32, 64, 8))).toContain("too small");
    expect(init(fmt(64, 64, 9))).toContain("9-bit input is not supported");
  });
});
