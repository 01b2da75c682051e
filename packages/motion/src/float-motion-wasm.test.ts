import { describe, expect, test } from "bun:test";
import { cpuKernels, FeatureCollector, Picture, setCpuKernels, type PictureFormat, type PicturePair } from "@vq/core";
import { extractedScores, seededRandom, stridedLuma } from "@vq/core/testing";
import { floatMotionOptions, type FloatMotionOptions } from "./float-definition.ts";
import { FloatMotionCpu } from "./float-motion-cpu.ts";
import { FloatMotionWasm } from "./float-motion-wasm.ts";
import { floatMotionFeature } from "./index.ts";
import { FLOAT_MOTION_KERNELS_WASM } from "./wasm/float-motion-kernels.wasm.ts";

/**
 * float_motion's WebAssembly SIMD kernels against the TypeScript reference (ADR 0040): the
 * same doubles for every output (debug on), on inputs the golden pairs do not reach: the
 * smallest and odd sizes (every width modulo 4, the blur's mirrored edges), depths 8 to 16,
 * chroma, the other filters, scale 1, flat and full-scale pictures. parity-wasm.test.ts
 * holds the kernels to libvmaf.
 */
const module = new WebAssembly.Module(Buffer.from(FLOAT_MOTION_KERNELS_WASM, "base64"));

/** A clip panning over a texture with structure and noise, in every plane. */
function clip(format: PictureFormat, frames: number, seed: number): Picture[] {
  const random = seededRandom(seed);
  const max = 2 ** format.bitDepth - 1;
  const texture = Array.from({ length: 3 * format.height * (format.width + 3 * frames) }, () => random());
  return Array.from({ length: frames }, (_, i) => {
    const p = Picture.allocate(format);
    p.planes.forEach((plane, k) => {
      for (let y = 0; y < plane.height; y++) {
        for (let x = 0; x < plane.width; x++) {
          const t = texture[(k * format.height + y) * (format.width + 3 * frames) + x + 3 * i]!;
          plane.data[y * plane.stride + x] = Math.round(max * (0.5 + 0.3 * Math.sin((x + 2 * i) / 4) * Math.cos(y / 3) + 0.2 * (t - 0.5)));
        }
      }
    });
    return p;
  });
}

const asPairs = (pictures: Picture[]): PicturePair[] => pictures.map((p) => ({ ref: p, dist: p }));

function expectSame(options: Partial<FloatMotionOptions>, pairs: PicturePair[]): void {
  const o = floatMotionOptions.resolve({ debug: true, ...options });
  const wasm = extractedScores(new FloatMotionWasm(o, module), pairs);
  const reference = extractedScores(new FloatMotionCpu(o), pairs);
  expect(Object.keys(wasm).length).toBeGreaterThanOrEqual(3);
  expect(wasm).toEqual(reference);
}

describe("FloatMotionWasm (WebAssembly SIMD) against FloatMotionCpu (TypeScript)", () => {
  for (const [bitDepth, width, height] of [
    [8, 3, 3],
    [8, 4, 5],
    [8, 5, 4],
    [8, 6, 7],
    [8, 7, 9],
    [8, 37, 21],
    [10, 42, 19],
    [12, 43, 17],
    [16, 44, 16],
  ] as const) {
    test(`${bitDepth}-bit ${width}x${height}, five frames`, () => {
      expectSame({}, asPairs(clip({ width, height, bitDepth, pixelFormat: "420" }, 5, width * 7 + bitDepth)));
    });
  }

  test("motion_add_uv, the 3-tap and no-op filters, scale 1, weights and blending", () => {
    const pairs = asPairs(clip({ width: 38, height: 26, bitDepth: 8, pixelFormat: "420" }, 4, 3));
    expectSame({ motion_add_uv: true }, pairs);
    expectSame({ motion_filter_size: 3 }, pairs);
    expectSame({ motion_filter_size: 1 }, pairs);
    expectSame({ motion_add_scale1: true }, pairs);
    expectSame({ motion_add_uv: true, motion_add_scale1: true, motion_fps_weight: 2.5, motion_blend_factor: 0.5, motion_max_val: 3 }, pairs);
  });

  test("flat, full-scale and alternating pictures at 8 and 16 bits", () => {
    for (const bitDepth of [8, 16]) {
      const format: PictureFormat = { width: 19, height: 11, bitDepth, pixelFormat: "444" };
      const max = 2 ** bitDepth - 1;
      const picture = (fill: (x: number, y: number) => number) => {
        const p = Picture.allocate(format);
        const plane = p.planes[0]!;
        for (let y = 0; y < plane.height; y++) for (let x = 0; x < plane.width; x++) plane.data[y * plane.stride + x] = fill(x, y);
        return p;
      };
      const flat = picture(() => 0);
      const full = picture(() => max);
      const checker = picture((x, y) => ((x + y) & 1 ? max : 0));
      expectSame({}, asPairs([flat, full, checker, checker, flat]));
    }
  });

  test("a plane whose rows are longer than its width (a decoder's stride)", () => {
    const pictures = clip({ width: 30, height: 12, bitDepth: 8, pixelFormat: "420" }, 3, 5);
    const o = floatMotionOptions.resolve({ debug: true });
    expect(extractedScores(new FloatMotionWasm(o, module), asPairs(pictures.map((p) => stridedLuma(p, 37))))).toEqual(extractedScores(new FloatMotionCpu(o), asPairs(pictures)));
  });

  test("an instance given back by a closed extractor scores as a new one, from frame 0 or past it", () => {
    const o = floatMotionOptions.resolve({ debug: true });
    const a = asPairs(clip({ width: 40, height: 20, bitDepth: 8, pixelFormat: "420" }, 3, 8));
    const b = asPairs(clip({ width: 40, height: 20, bitDepth: 8, pixelFormat: "420" }, 4, 9));
    const reference = extractedScores(new FloatMotionCpu(o), b);
    extractedScores(new FloatMotionWasm(o, module), a);
    expect(extractedScores(new FloatMotionWasm(o, module), b)).toEqual(reference);
    // a run resumed at frame 5 (a threaded run's span) scores its first frame against the zeros of a new instance
    const fromFrame5 = (e: FloatMotionCpu | FloatMotionWasm) => {
      const collector = new FeatureCollector();
      e.init(b[0]!.ref.format);
      b.forEach((pair, i) => e.extract(pair, 5 + i, collector));
      e.flush(collector);
      e.close();
      return collector.names().map((name) => [name, b.map((_, i) => collector.get(name, 5 + i))]);
    };
    extractedScores(new FloatMotionWasm(o, module), a);
    expect(fromFrame5(new FloatMotionWasm(o, module))).toEqual(fromFrame5(new FloatMotionCpu(o)));
  });
});

test("a CPU run's float_motion is FloatMotionWasm, or FloatMotionCpu when the TypeScript code is forced", () => {
  expect(floatMotionFeature.cpu(floatMotionOptions.resolve())).toBeInstanceOf(cpuKernels() === "ts" ? FloatMotionCpu : FloatMotionWasm);
  setCpuKernels("ts");
  try {
    expect(floatMotionFeature.cpu(floatMotionOptions.resolve())).toBeInstanceOf(FloatMotionCpu);
  } finally {
    setCpuKernels(undefined);
  }
});
