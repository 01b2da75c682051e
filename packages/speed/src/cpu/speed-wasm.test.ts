import { describe, expect, test } from "bun:test";
import { FeatureCollector, Picture, Y4mReader, type FeatureExtractor, type PictureFormat, type PicturePair } from "@vq/core";
import { goldenPath } from "@vq/core/golden";
import { seededRandom } from "@vq/core/testing";
import { speedChromaOptions, speedTemporalOptions } from "../definition.ts";
import { CovarianceEstimator } from "../numerics/covariance.ts";
import { QrSolver } from "../numerics/qr-solve.ts";
import { Decimator, LocalMeanRemover } from "../numerics/decimate.ts";
import { allocateImage, planeToFloat, sampleDifference, type FloatImage } from "../numerics/float-image.ts";
import { antialiasFilter, localMeanFilter } from "../numerics/gaussian-taps.ts";
import { speedGeometry, type PlaneSize } from "../numerics/speed-geometry.ts";
import type { SpeedModel } from "../numerics/speed-model.ts";
import { SpeedChromaCpu } from "./speed-chroma-cpu.ts";
import { SpeedChromaWasm } from "./speed-chroma-wasm.ts";
import { SpeedTemporalCpu } from "./speed-temporal-cpu.ts";
import { SpeedTemporalWasm } from "./speed-temporal-wasm.ts";
import { SpeedWasmPasses } from "./speed-wasm-passes.ts";
import { SPEED_KERNELS_WASM } from "./wasm/speed-kernels.wasm.ts";

// The kernels against the TypeScript reference, bit for bit: every float plane and matrix
// the passes produce, the model's per-block statistics and the scores. Scores are floats
// means of floats, so the intermediates are compared too (a last-bit slip could vanish there).
const module = new WebAssembly.Module(Uint8Array.from(atob(SPEED_KERNELS_WASM), (c) => c.charCodeAt(0)));


/** The bits of floats (so that −0 and +0, or two NaNs, count as different or equal as bits do). */
function bits(a: Float32Array): Uint32Array {
  return new Uint32Array(a.slice().buffer);
}

/** Textured samples with noise (a smooth field gives the covariance structure; noise its full rank). */
function picture(format: PictureFormat, seed: number, noise: number, stridePad = 0): Picture {
  const rnd = seededRandom(seed);
  const max = 2 ** format.bitDepth - 1;
  const cw = format.pixelFormat === "444" ? format.width : format.width >> 1;
  const ch = format.pixelFormat === "420" ? format.height >> 1 : format.height;
  const bps = format.bitDepth > 8 ? 2 : 1;
  const sizes = [
    [format.width, format.height],
    [cw, ch],
    [cw, ch],
  ] as const;
  let offset = 0;
  const layouts = sizes.map(([width, height]) => {
    const l = { width, height, stride: width + stridePad, offset };
    offset += l.stride * height * bps;
    return l;
  });
  const p = new Picture(format, new Uint8Array(offset), layouts);
  const phase = rnd() * 10;
  p.planes.forEach((plane, k) => {
    for (let y = 0; y < plane.height; y++) {
      for (let x = 0; x < plane.width; x++) {
        const v = 0.5 + 0.3 * Math.sin((x + 5 * k + phase) / 9) * Math.cos(y / 13 + phase) + noise * (rnd() - 0.5);
        plane.data[y * plane.stride + x] = Math.max(0, Math.min(max, Math.round(v * max)));
      }
    }
  });
  return p;
}

function randomFloats(size: PlaneSize, seed: number, scale: number): FloatImage {
  const rnd = seededRandom(seed);
  const image = allocateImage(size);
  for (let i = 0; i < image.data.length; i++) image.data[i] = Math.fround((rnd() - 0.5) * scale * (rnd() < 0.05 ? 1000 : 1));
  return image;
}

/** Every frame's outputs and, after each frame, both models' per-block statistics, for the two extractors. */
function runBoth(cpu: FeatureExtractor<PicturePair>, wasm: FeatureExtractor<PicturePair>, format: PictureFormat, frames: PicturePair[]): void {
  cpu.init(format);
  wasm.init(format);
  const a = new FeatureCollector();
  const b = new FeatureCollector();
  frames.forEach((frame, i) => {
    cpu.extract(frame, i, a);
    wasm.extract(frame, i, b);
    const ma = (cpu as unknown as { model: SpeedModel }).model;
    const mb = (wasm as unknown as { model: SpeedModel }).model;
    for (const side of ["ref", "dis"] as const) {
      expect(bits(mb[side].entropies)).toEqual(bits(ma[side].entropies));
      expect(bits(mb[side].variances)).toEqual(bits(ma[side].variances));
      expect(mb[side].singular).toBe(ma[side].singular);
    }
  });
  expect(b.names().sort()).toEqual(a.names().sort());
  for (const name of a.names()) {
    for (let i = 0; i < frames.length; i++) expect(Object.is(b.get(name, i), a.get(name, i))).toBe(true);
  }
}

function frames(format: PictureFormat, count: number, seed: number, noise: number, stridePad = 0): PicturePair[] {
  return Array.from({ length: count }, (_, i) => ({ ref: picture(format, seed + 2 * i, noise, stridePad), dist: picture(format, seed + 2 * i + 1, noise * 1.7, stridePad) }));
}

describe("SpEED's WebAssembly kernels give the reference's floats", () => {
  test("sample conversion, frame differences and decimation from samples, 8 to 16 bits, odd sizes", () => {
    for (const bitDepth of [8, 10, 12, 16]) {
      for (const [width, height] of [
        [83, 81],
        [97, 90],
        [160, 85],
      ] as const) {
        const format: PictureFormat = { width, height, bitDepth, pixelFormat: "444" };
        const geometry = speedGeometry(format, 1, "test");
        const passes = new SpeedWasmPasses(module, geometry, { speed_kernelscale: 1 }, { pictures: 2, samplePlanes: 2, bitDepth });
        const [p, q] = [picture(format, bitDepth * width, 1, 3), picture(format, bitDepth * width + 1, 1)];
        // full-scale extremes in the first samples
        p.planes[0]!.data[0] = 2 ** bitDepth - 1;
        q.planes[0]!.data[0] = 0;
        passes.loadSamples(p.planes[0]!, 0);
        passes.loadSamples(q.planes[0]!, 1);
        passes.toFloat(0, passes.pictures[0]!);
        expect(bits(passes.pictures[0]!.data)).toEqual(bits(planeToFloat(p.planes[0]!, bitDepth, allocateImage(format)).data));
        passes.difference(0, 1, passes.pictures[1]!);
        const previous = bitDepth > 8 ? new Uint16Array(width * height) : new Uint8Array(width * height);
        for (let y = 0; y < height; y++) previous.set(p.planes[0]!.data.subarray(y * p.planes[0]!.stride, y * p.planes[0]!.stride + width), y * width);
        const difference = sampleDifference(previous, q.planes[0]!, bitDepth, allocateImage(format));
        expect(bits(passes.pictures[1]!.data)).toEqual(bits(difference.data));
        // decimation straight from the samples, and from their differences: filters of 3 to 37
        // taps (column groups around the kept columns up to 11 taps, whole rows beyond)
        for (const kernelscale of [0.1, 0.5, 1, 1.5, 4]) {
          const filtered = kernelscale === 1 ? passes : new SpeedWasmPasses(module, geometry, { speed_kernelscale: kernelscale }, { pictures: 0, samplePlanes: 2, bitDepth });
          filtered.loadSamples(p.planes[0]!, 0);
          filtered.loadSamples(q.planes[0]!, 1);
          const decimator = new Decimator(geometry.scaled, geometry.decimated, antialiasFilter(kernelscale));
          const expected = allocateImage(geometry.decimated);
          decimator.run(planeToFloat(p.planes[0]!, bitDepth, allocateImage(format)), expected);
          filtered.decimateSamples(0, undefined, filtered.decimated);
          expect(bits(filtered.decimated.data)).toEqual(bits(expected.data));
          decimator.run(difference, expected);
          filtered.decimateSamples(0, 1, filtered.decimated);
          expect(bits(filtered.decimated.data)).toEqual(bits(expected.data));
        }
      }
    }
  });

  test("decimation, local mean and covariance (its means and double sums too) on arbitrary floats, sub widths of every residue modulo 16, four filter scales", () => {
    let seed = 1;
    for (const kernelscale of [0.5, 1, 1.5, 3]) {
      for (let extra = 0; extra < 16; extra++) {
        // decimated widths of 5m blocks give sub widths 5m − 4: every residue modulo 16 (the kernels' 16-, 8- and 1-column steps)
        const size = { width: 80 * (5 + extra) + (extra % 7), height: 16 * (10 + (extra % 3)) + extra };
        const geometry = speedGeometry(size, 1, "test");
        const passes = new SpeedWasmPasses(module, geometry, { speed_kernelscale: kernelscale }, { pictures: 1, samplePlanes: 0, bitDepth: 8 });
        const input = randomFloats(size, seed++, 255);
        passes.pictures[0]!.data.set(input.data);
        const expected = allocateImage(geometry.decimated);
        new Decimator(geometry.scaled, geometry.decimated, antialiasFilter(kernelscale)).run(input, expected);
        passes.decimate(passes.pictures[0]!, passes.decimated);
        expect(bits(passes.decimated.data)).toEqual(bits(expected.data));
        new LocalMeanRemover(geometry.decimated, localMeanFilter(kernelscale)).run(expected);
        passes.removeLocalMean(passes.decimated);
        expect(bits(passes.decimated.data)).toEqual(bits(expected.data));
        const reference = new CovarianceEstimator(geometry);
        const covA = new Float32Array(625);
        const covB = new Float32Array(625);
        reference.run(expected.data, covA);
        passes.covariance(passes.decimated.data, covB);
        expect(bits(covB)).toEqual(bits(covA));
        expect(bits(passes.covarianceMeans())).toEqual(bits(reference.means));
        // the double sums before their rounding to float: a reordered addition shows here
        const crossSum = (reference as unknown as { crossSum(a: number, b: number): number }).crossSum.bind(reference);
        for (let a = 0; a < 25; a++) for (let b = 0; b <= a; b++) expect(Object.is(passes.crossSum(a, b), crossSum(a, b))).toBe(true);
      }
    }
  });

  test("QR solve of K X = Y: covariances of random data, an ill-conditioned and a singular K, 1 to 41 columns", () => {
    let seed = 7;
    for (const columns of [1, 3, 4, 5, 8, 13, 41]) {
      const size = { width: 80 * columns, height: 80 };
      const geometry = speedGeometry(size, 1, "test");
      const passes = new SpeedWasmPasses(module, geometry, { speed_kernelscale: 1 }, { pictures: 0, samplePlanes: 0, bitDepth: 8 });
      const blocks = geometry.blocks;
      expect(blocks).toBe(columns);
      for (const kind of ["random", "ill", "singular"] as const) {
        const rnd = seededRandom(seed++);
        const k = new Float32Array(625);
        // K = A A' / 25 + d I: symmetric, positive definite unless d and A make it otherwise
        const a = Float32Array.from({ length: 625 }, () => rnd() - 0.5);
        for (let i = 0; i < 25; i++) {
          for (let j = 0; j < 25; j++) {
            let t = 0;
            for (let m = 0; m < 25; m++) t += a[i * 25 + m]! * a[j * 25 + m]!;
            k[i * 25 + j] = Math.fround(t / 25 + (i === j ? (kind === "ill" ? 1e-5 : 0.1) : 0));
          }
        }
        if (kind === "singular") for (let j = 0; j < 25; j++) k[24 * 25 + j] = k[j * 25 + 24] = 0;
        const y = Float32Array.from({ length: 25 * blocks }, () => (rnd() - 0.5) * 100);
        const xa = new Float32Array(25 * blocks);
        const xb = new Float32Array(25 * blocks);
        const solvedA = new QrSolver(25, blocks).solve(k, y, xa);
        const solvedB = passes.solve(k, y, xb);
        expect(solvedB).toBe(solvedA);
        if (kind === "singular") expect(solvedA).toBe(false);
        else expect(solvedA).toBe(true);
        if (solvedA) expect(bits(xb)).toEqual(bits(xa));
      }
    }
  });

  test("speed_chroma, whole extractor: 8, 10, 12 and 16 bits, 420/422/444, odd sizes, strided planes, options", () => {
    const cases: [PictureFormat, Record<string, string>, number][] = [
      [{ width: 176, height: 162, bitDepth: 8, pixelFormat: "420" }, {}, 0],
      [{ width: 171, height: 167, bitDepth: 10, pixelFormat: "420" }, { speed_weight_var_mode: "3" }, 5],
      [{ width: 163, height: 97, bitDepth: 12, pixelFormat: "422" }, { speed_kernelscale: "1.5", speed_nn_floor: "0.1" }, 0],
      [{ width: 131, height: 89, bitDepth: 16, pixelFormat: "444" }, { speed_weight_var_mode: "6", speed_sigma_nn: "0.5" }, 2],
      [{ width: 201, height: 203, bitDepth: 8, pixelFormat: "444" }, { speed_prescale: "0.8", speed_prescale_method: "bicubic" }, 0],
      [{ width: 121, height: 99, bitDepth: 10, pixelFormat: "444" }, { speed_prescale: "1.5", speed_prescale_method: "lanczos4" }, 1],
    ];
    cases.forEach(([format, options, pad], i) => {
      const o = speedChromaOptions.parseStrings(options);
      runBoth(new SpeedChromaCpu(o), new SpeedChromaWasm(o, module), format, frames(format, 2, 100 + 10 * i, 0.3 + 0.2 * i, pad));
    });
  });

  test("speed_temporal, whole extractor: 8, 10, 12 and 16 bits, odd sizes, strided planes, options", () => {
    const cases: [PictureFormat, Record<string, string>, number][] = [
      [{ width: 96, height: 85, bitDepth: 8, pixelFormat: "420" }, {}, 0],
      [{ width: 113, height: 97, bitDepth: 10, pixelFormat: "420" }, { speed_use_ref_diff: "true" }, 3],
      [{ width: 161, height: 83, bitDepth: 12, pixelFormat: "444" }, { speed_kernelscale: "0.5" }, 0],
      [{ width: 88, height: 81, bitDepth: 16, pixelFormat: "422" }, { speed_sigma_nn: "1.2" }, 1],
      [{ width: 140, height: 121, bitDepth: 8, pixelFormat: "420" }, { speed_prescale: "0.75", speed_prescale_method: "bilinear" }, 0],
    ];
    cases.forEach(([format, options, pad], i) => {
      const o = speedTemporalOptions.parseStrings(options);
      runBoth(new SpeedTemporalCpu(o), new SpeedTemporalWasm(o, module), format, frames(format, 4, 300 + 10 * i, 0.4, pad));
    });
  });

  test("flat pictures (singular covariances) and the golden nat_576x324 frames", async () => {
    const format: PictureFormat = { width: 176, height: 176, bitDepth: 8, pixelFormat: "420" };
    const flat = (v: number): Picture => {
      const p = picture(format, 1, 0);
      for (const plane of p.planes) plane.data.fill(v);
      return p;
    };
    const flats = [
      { ref: flat(16), dist: flat(200) },
      { ref: flat(16), dist: picture(format, 9, 0.5) },
    ];
    runBoth(new SpeedChromaCpu(speedChromaOptions.defaults), new SpeedChromaWasm(speedChromaOptions.defaults, module), format, flats);
    runBoth(new SpeedTemporalCpu(speedTemporalOptions.defaults), new SpeedTemporalWasm(speedTemporalOptions.defaults, module), format, flats);

    const read = async (path: string) => {
      const reader = await Y4mReader.open(goldenPath(path));
      const out: Picture[] = [];
      for (let i = 0; i < 3; i++) {
        const p = await reader.read();
        out.push(new Picture(p!.format, p!.buffer.slice(), p!.planes));
      }
      await reader.close();
      return out;
    };
    const refs = await read("vectors/nat_576x324.ref.y4m");
    const dists = await read("vectors/nat_576x324.x264crf30.y4m");
    const golden = refs.map((ref, i) => ({ ref, dist: dists[i]! }));
    runBoth(new SpeedChromaCpu(speedChromaOptions.defaults), new SpeedChromaWasm(speedChromaOptions.defaults, module), refs[0]!.format, golden);
    runBoth(new SpeedTemporalCpu(speedTemporalOptions.defaults), new SpeedTemporalWasm(speedTemporalOptions.defaults, module), refs[0]!.format, golden);
  });
});
