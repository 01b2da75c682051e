import { describe, expect, test } from "bun:test";
import { FeatureCollector, Picture, type PictureFormat } from "@vq/core";
import { extractedScores, seededRandom } from "@vq/core/testing";
import { motionOptions, type MotionOptions } from "./definition.ts";
import { MotionCpu } from "./motion-cpu.ts";
import { MotionWasm } from "./motion-wasm.ts";
import { MOTION_KERNELS_WASM } from "./wasm/motion-kernels.wasm.ts";

/**
 * The WebAssembly SIMD kernels against the TypeScript reference (ADR 0040), every output,
 * on what the golden pairs do not reach: odd and tiny sizes, depths 8 to 16 (at 16 bits
 * samples of 2^15 and above take the exact wide SAD), noise, full-scale flicker.
 * parity-wasm.test.ts holds them to libvmaf.
 */
const module = new WebAssembly.Module(Buffer.from(MOTION_KERNELS_WASM, "base64"));


function clip(format: PictureFormat, frames: number, sample: (x: number, y: number, i: number, random: () => number) => number): Picture[] {
  const random = seededRandom(format.width * 7 + format.bitDepth);
  const max = 2 ** format.bitDepth - 1;
  return Array.from({ length: frames }, (_, i) => {
    const p = Picture.allocate(format);
    const y = p.planes[0]!;
    for (let r = 0; r < y.height; r++) for (let c = 0; c < y.width; c++) y.data[r * y.stride + c] = Math.min(max, Math.max(0, Math.round(sample(c, r, i, random))));
    return p;
  });
}

function expectSame(pictures: Picture[], options: Partial<MotionOptions> = {}): void {
  const o = motionOptions.resolve(options);
  const pairs = pictures.map((p) => ({ ref: p, dist: p }));
  const wasm = extractedScores(new MotionWasm(o, module), pairs);
  const reference = extractedScores(new MotionCpu(o), pairs);
  expect(Object.keys(wasm).length).toBeGreaterThan(0);
  expect(wasm.integer_motion2?.some((v) => v > 0) ?? true).toBe(true);
  expect(wasm).toEqual(reference);
}

describe("MotionWasm (WebAssembly SIMD) against MotionCpu (TypeScript)", () => {
  const cases: [number, number, number][] = [
    [8, 61, 37],
    [8, 5, 5],
    [8, 3, 3],
    [10, 4, 3],
    [10, 45, 33],
    [12, 30, 22],
    [16, 23, 19],
  ];
  for (const [bitDepth, width, height] of cases) {
    test(`${bitDepth}-bit ${width}x${height}: panning noise, both windows`, () => {
      const max = 2 ** bitDepth - 1;
      const format: PictureFormat = { width, height, bitDepth, pixelFormat: "420" };
      const pictures = clip(format, 6, (x, y, i, random) => max * (0.5 + 0.4 * Math.sin((x + 2 * i) / 3) * Math.cos(y / 4)) + (random() - 0.5) * max * 0.1);
      expectSame(pictures, { debug: true });
      expectSame(pictures, { motion_five_frame_window: true, debug: true });
    });
  }

  test("full-scale flicker at 8 and 16 bits (the fixed point's limits)", () => {
    for (const bitDepth of [8, 16]) {
      const max = 2 ** bitDepth - 1;
      const format: PictureFormat = { width: 37, height: 21, bitDepth, pixelFormat: "444" };
      expectSame(clip(format, 5, (x, y, i) => ((x + y + i) & 1 ? max : 0)), { debug: true });
    }
  });
});

test("a closed extractor's module instance serves the next one, which scores as a new instance would", () => {
  const format: PictureFormat = { width: 40, height: 24, bitDepth: 8, pixelFormat: "420" };
  const pictures = clip(format, 6, (x, y, i, random) => 128 + 100 * Math.sin((x + 3 * i) / 4) * Math.cos(y / 3) + (random() - 0.5) * 20);
  const o = motionOptions.resolve({ debug: true });
  const first = new MotionWasm(o, module);
  first.init(format);
  const kernels = (first as unknown as { state: { kernels: unknown } }).state.kernels;
  // scores a different clip, so that what it leaves in the memory differs from a new instance's zeros
  first.extract({ ref: pictures[5]!, dist: pictures[5]! }, 0, new FeatureCollector());
  first.extract({ ref: pictures[2]!, dist: pictures[2]! }, 1, new FeatureCollector());
  first.close();
  const second = new MotionWasm(o, module);
  const reused = extractedScores(second, pictures.map((p) => ({ ref: p, dist: p })));
  const third = new MotionWasm(o, module);
  third.init(format);
  expect((third as unknown as { state: { kernels: unknown } }).state.kernels).toBe(kernels);
  third.close();
  expect(reused).toEqual(extractedScores(new MotionCpu(o), pictures.map((p) => ({ ref: p, dist: p }))));
});

test("8-bit pictures (kept in bytes) take the narrow SAD kernel, full-scale samples too", () => {
  const format: PictureFormat = { width: 37, height: 21, bitDepth: 8, pixelFormat: "420" };
  const extractor = new MotionWasm(motionOptions.resolve(), module);
  extractor.init(format);
  const collector = new FeatureCollector();
  clip(format, 2, (x, y, i) => ((x + y + i) & 1 ? 255 : 0)).forEach((p, i) => extractor.extract({ ref: p, dist: p }, i, collector));
  const entries = (extractor as unknown as { state: { entries: { narrow: boolean }[] } }).state.entries;
  expect(entries.map((e) => e.narrow)).toEqual([true, true]);
  extractor.close();
});
