import { afterEach, describe, expect, test } from "bun:test";
import { CpuBackend, Picture, scoreVideos, Y4mReader, type PictureFormat } from "@vq/core";
import { goldenOutput, goldenPairs, goldenPath, goldenRun, type GoldenPair } from "@vq/core/golden";
import { seededRandom } from "@vq/core/testing";
import { expectParity } from "@vq/parity";
import { AdmCpu, admSettings } from "../cpu/adm-cpu.ts";
import { AdmPipeline, SIMD_PROFILES, type SimdProfile } from "../cpu/adm-pipeline.ts";
import { admDefinition, admOptions } from "../definition.ts";
import { exactness } from "./exactness.ts";

/**
 * The BigInt recomputation that takes over when sums leave the range doubles hold
 * exactly: it must match libvmaf too, and agree with the double path on extreme input.
 * Also: the x86 SIMD emulation (dwt2.ts) must matter where libvmaf's builds differ.
 */

afterEach(() => {
  exactness.forceBigInt = false;
});

// $VQ_GOLDEN_PAIRS may leave a pair out: its tests are skipped then
const byName = (name: string) => goldenPairs().find((p) => p.pair === name);
const oddPair = byName("odd_321x241_444.noise");
const panPair = byName("nat_576x324.scale2x");

/** A golden pair scored by integer adm (debug) on the CPU, as the libvmaf build `simd` computes it. */
async function scorePair(pair: GoldenPair, simd: SimdProfile = SIMD_PROFILES.avx512) {
  const ref = await Y4mReader.open(goldenPath(pair.reference));
  const dist = await Y4mReader.open(goldenPath(pair.distorted));
  try {
    return await scoreVideos(ref, dist, new CpuBackend([new AdmCpu(admOptions.resolve({ debug: true }), simd)]));
  } finally {
    await ref.close();
    await dist.close();
  }
}

test.skipIf(!oddPair)("the BigInt path alone reproduces libvmaf (odd_321x241_444.noise, debug run)", async () => {
  exactness.forceBigInt = true;
  const pair = oddPair!;
  const { collector, frames } = await scorePair(pair);
  const run = goldenRun(pair, "debug");
  const names = admDefinition.providedFeatures(admOptions.resolve({ debug: true }));
  expect(names).toEqual(Object.keys(goldenOutput(run, true).frames[0]!.metrics).filter((k) => /^integer_(adm|aim)/.test(k)));
  expectParity({ collector, run, names, frames, tolerance: ["identical"], label: "cpu BigInt path" });
}, 120_000);

const random = seededRandom(12345);

/** A picture of hard edges between black and full scale (and noise), the largest coefficients adm can see. */
function extremePicture(format: PictureFormat, variant: number): Picture {
  const picture = Picture.allocate(format);
  const plane = picture.planes[0]!;
  const peak = 2 ** format.bitDepth - 1;
  for (let y = 0; y < format.height; y++) {
    for (let x = 0; x < format.width; x++) {
      let v: number;
      if (variant === 0) v = ((x >> 1) + (y >> 1)) % 2 ? peak : 0;
      else if (variant === 1) v = random() < 0.5 ? peak : 0;
      else v = ((x >> 2) + (y >> 3)) % 2 ? peak : Math.floor(random() * peak);
      plane.data[y * plane.stride + x] = v;
    }
  }
  return picture;
}

describe("double and BigInt paths agree on extreme content", () => {
  for (const bitDepth of [8, 10, 12, 16]) {
    test(`${bitDepth}-bit, 67x45, edges and noise`, () => {
      const format: PictureFormat = { width: 67, height: 45, bitDepth, pixelFormat: "420" };
      const settings = admSettings(admOptions.resolve({}));
      const ref = extremePicture(format, 0);
      for (const variant of [1, 2]) {
        const dist = extremePicture(format, variant);
        const fast = new AdmPipeline(format.width, format.height, bitDepth, settings);
        const a = structuredClone(fast.compute(ref.planes[0]!, dist.planes[0]!));
        exactness.forceBigInt = true;
        const exact = new AdmPipeline(format.width, format.height, bitDepth, settings);
        const b = structuredClone(exact.compute(ref.planes[0]!, dist.planes[0]!));
        exactness.forceBigInt = false;
        expect(Number.isFinite(a.score)).toBe(true);
        expect(a).toEqual(b);
      }
    });
  }
});

test("a 4K-wide row past 2^52 is summed in BigInt alone, with the same scores as the BigInt path", () => {
  const format: PictureFormat = { width: 3840, height: 24, bitDepth: 8, pixelFormat: "420" };
  const settings = admSettings(admOptions.resolve({}));
  const ref = extremePicture(format, 0);
  const dist = extremePicture(format, 1);
  const before = exactness.rowsInBigInt;
  const a = structuredClone(new AdmPipeline(format.width, format.height, 8, settings).compute(ref.planes[0]!, dist.planes[0]!));
  expect(exactness.rowsInBigInt).toBeGreaterThan(before);
  exactness.forceBigInt = true;
  const b = structuredClone(new AdmPipeline(format.width, format.height, 8, settings).compute(ref.planes[0]!, dist.planes[0]!));
  expect(a).toEqual(b);
});

describe("libvmaf's x86 DWT kernels", () => {
  const frameScores = async (name: string, simd: (typeof SIMD_PROFILES)[keyof typeof SIMD_PROFILES]) => {
    const { collector } = await scorePair(byName(name)!, simd);
    return collector.frame(0);
  };

  test.skipIf(!oddPair)("their unmirrored last column changes 321-wide results (the golden data needs the AVX-512 one)", async () => {
    const avx512 = await frameScores("odd_321x241_444.noise", SIMD_PROFILES.avx512);
    const c = await frameScores("odd_321x241_444.noise", SIMD_PROFILES.c);
    const scale3 = (scores: [string, number][]) => scores.filter(([k]) => k.includes("scale3"));
    expect(scale3(avx512)).not.toEqual(scale3(c));
    const others = (scores: [string, number][]) => scores.filter(([k]) => /scale[012]$/.test(k));
    expect(others(avx512)).toEqual(others(c));
  }, 60_000);

  test.skipIf(!panPair)("and nothing where no width puts the last column in a vector (576x324)", async () => {
    const name = "nat_576x324.scale2x";
    const results = await Promise.all([SIMD_PROFILES.c, SIMD_PROFILES.avx2, SIMD_PROFILES.avx512].map((p) => frameScores(name, p)));
    expect(results[0]).toEqual(results[1]!);
    expect(results[0]).toEqual(results[2]!);
  }, 60_000);
});
