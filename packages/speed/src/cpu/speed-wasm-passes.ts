import { copyPlaneIntoKernels, KernelMemoryLayout, kernelsModule, reserveMemory, type Plane } from "@vq/core";
import type { SpeedOptions } from "../definition.ts";
import { mirrorIndex } from "../numerics/decimate.ts";
import { sampleScale, type FloatImage } from "../numerics/float-image.ts";
import { antialiasFilter, localMeanFilter } from "../numerics/gaussian-taps.ts";
import type { SpeedPasses } from "../numerics/speed-model.ts";
import { SPEED_BLOCK_ELEMENTS, type PlaneSize, type SpeedGeometry } from "../numerics/speed-geometry.ts";
import { SPEED_KERNELS_WASM } from "./wasm/speed-kernels.wasm.ts";

/** The kernels' exports (assembly/speed-kernels.ts); pointers are byte addresses in `memory`. */
interface SpeedKernels {
  readonly memory: WebAssembly.Memory;
  heapBase(): number;
  samplesToFloat(src: number, narrow: number, n: number, dst: number, inv: number): void;
  samplesDifference(prev: number, cur: number, narrow: number, n: number, dst: number, inv: number): void;
  decimate(src: number, width: number, height: number, taps: number, n: number, tapColumns: number, row: number, dst: number, outW: number, outH: number): void;
  removeLocalMean(image: number, w: number, h: number, taps: number, n: number, row: number, mean: number): void;
  covariance(data: number, stride: number, subW: number, subH: number, centred: number, means: number, cov: number): void;
  crossSum(centred: number, nBytes: number, a: number, b: number, width: number, height: number): number;
  decimateSamples(a: number, b: number, narrow: number, diff: number, inv: number, width: number, height: number, taps: number, n: number, tapColumns: number, row: number, dst: number, outW: number, outH: number): void;
  qrSolve(a: number, y: number, x: number, columns: number, work: number): number;
}

/** The compiled kernels for this thread, or undefined where the TypeScript reference runs (core's kernelsModule). */
export function speedKernelsModule(): WebAssembly.Module | undefined {
  return kernelsModule("speed", SPEED_KERNELS_WASM);
}

/** Bytes a 4- or 8-sample step may read past a buffer's end (it never uses what it reads there). */
const SLACK_BYTES = 64;

/** What an extractor needs besides SpeedModel's own pictures. */
export interface SpeedWasmInputs {
  /** Float pictures of the original size (the model's inputs). */
  readonly pictures: number;
  /** Packed sample planes of the original size (a frame's samples, copied in). */
  readonly samplePlanes: number;
  readonly bitDepth: number;
}

/**
 * SpeedModel's passes on the WebAssembly SIMD kernels (ADR 0040), in one module instance
 * laid out for one geometry: the filters, the decimated and local-mean pictures, the
 * covariance's centred copies, and the extractor's input pictures and sample planes. The
 * memory never grows after the constructor, so the FloatImage views stay valid.
 */
export class SpeedWasmPasses implements SpeedPasses {
  readonly scaled?: FloatImage;
  readonly decimated: FloatImage;
  readonly pictures: FloatImage[] = [];
  private readonly kernels: SpeedKernels;
  private readonly samples: number[] = [];
  private readonly narrow: boolean;
  private readonly inverse: number;
  private readonly antialias: { at: number; n: number };
  private readonly localMean: { at: number; n: number };
  private readonly tapColumns: number;
  private readonly row: number;
  private readonly mean: number;
  private readonly centred: number;
  private readonly means: number;
  private readonly cov: number;
  /** qrSolve's Y, X and work space. */
  private readonly solveY: number;
  private readonly solveX: number;
  private readonly solveWork: number;

  constructor(module: WebAssembly.Module, private readonly geometry: SpeedGeometry, options: Pick<SpeedOptions, "speed_kernelscale">, inputs: SpeedWasmInputs) {
    this.kernels = new WebAssembly.Instance(module).exports as unknown as SpeedKernels;
    const layout = new KernelMemoryLayout(this.kernels.heapBase(), SLACK_BYTES);
    const { original, scaled, decimated, sub } = geometry;
    const antialias = antialiasFilter(options.speed_kernelscale);
    const local = localMeanFilter(options.speed_kernelscale);
    this.antialias = { at: layout.take(antialias.length * 4), n: antialias.length };
    this.localMean = { at: layout.take(local.length * 4), n: local.length };
    this.tapColumns = layout.take(decimated.width * antialias.length * 4);
    this.row = layout.take(Math.max(scaled.width, decimated.width) * 4);
    this.mean = layout.take(decimated.width * decimated.height * 4);
    this.centred = layout.take(SPEED_BLOCK_ELEMENTS * sub.width * sub.height * 8);
    this.means = layout.take(SPEED_BLOCK_ELEMENTS * 4);
    this.cov = layout.take(SPEED_BLOCK_ELEMENTS * SPEED_BLOCK_ELEMENTS * 4);
    const solveColumns = SPEED_BLOCK_ELEMENTS * geometry.blocks * 4;
    this.solveY = layout.take(solveColumns);
    this.solveX = layout.take(solveColumns);
    this.solveWork = layout.take(4 * SPEED_BLOCK_ELEMENTS * SPEED_BLOCK_ELEMENTS * 4 + SPEED_BLOCK_ELEMENTS * 4 + solveColumns);
    const planes: [PlaneSize, number][] = [];
    const plane = (size: PlaneSize) => {
      const at = layout.take(size.width * size.height * 4);
      planes.push([size, at]);
      return planes.length - 1;
    };
    const decimatedAt = plane(decimated);
    const scaledAt = geometry.resampled ? plane(scaled) : -1;
    const pictureAt = Array.from({ length: inputs.pictures }, () => plane(original));
    this.narrow = inputs.bitDepth === 8;
    for (let i = 0; i < inputs.samplePlanes; i++) this.samples.push(layout.take(original.width * original.height * (this.narrow ? 1 : 2)));
    this.inverse = 1 / sampleScale(inputs.bitDepth);
    reserveMemory(this.kernels.memory, layout.end);

    const buffer = this.kernels.memory.buffer;
    const image = (i: number): FloatImage => {
      const [size, at] = planes[i]!;
      return { width: size.width, height: size.height, data: new Float32Array(buffer, at, size.width * size.height) };
    };
    this.decimated = image(decimatedAt);
    if (scaledAt >= 0) this.scaled = image(scaledAt);
    for (const at of pictureAt) this.pictures.push(image(at));
    new Float32Array(buffer, this.antialias.at, antialias.length).set(antialias);
    new Float32Array(buffer, this.localMean.at, local.length).set(local);
    const columns = new Int32Array(buffer, this.tapColumns, decimated.width * antialias.length);
    const half = antialias.length >> 1;
    for (let j = 0; j < decimated.width; j++) {
      for (let k = 0; k < antialias.length; k++) columns[j * antialias.length + k] = mirrorIndex(16 * j - half + k, scaled.width);
    }
  }

  /** The byte address of a picture in the kernels' memory (every picture these passes see is). */
  private address(data: Float32Array): number {
    if (data.buffer !== this.kernels.memory.buffer) throw new Error("SpeedWasmPasses: a picture outside the kernels' memory");
    return data.byteOffset;
  }

  /** A plane (of the original size) packed into sample plane `slot`. */
  loadSamples(plane: Plane, slot: number): void {
    copyPlaneIntoKernels(this.kernels.memory.buffer, plane, this.samples[slot]!, plane.width, this.narrow);
  }

  /** planeToFloat of sample plane `slot` into `out`. */
  toFloat(slot: number, out: FloatImage): void {
    this.kernels.samplesToFloat(this.samples[slot]!, this.narrow ? 1 : 0, out.width * out.height, this.address(out.data), this.inverse);
  }

  /** sampleDifference of sample planes `previous` minus `current` into `out`. */
  difference(previous: number, current: number, out: FloatImage): void {
    this.kernels.samplesDifference(this.samples[previous]!, this.samples[current]!, this.narrow ? 1 : 0, out.width * out.height, this.address(out.data), this.inverse);
  }

  /**
   * decimate of sample plane `slot` as toFloat would convert it, or, with `minus`, of the
   * difference `slot` − `minus`, straight from the samples (no full-size float picture).
   */
  decimateSamples(slot: number, minus: number | undefined, out: FloatImage): void {
    const { antialias, geometry } = this;
    const { width, height } = geometry.original;
    if (geometry.resampled) throw new Error("SpeedWasmPasses: decimateSamples on a resampled geometry");
    const b = minus === undefined ? 0 : this.samples[minus]!;
    this.kernels.decimateSamples(this.samples[slot]!, b, this.narrow ? 1 : 0, minus === undefined ? 0 : 1, this.inverse, width, height, antialias.at, antialias.n, this.tapColumns, this.row, this.address(out.data), out.width, out.height);
  }

  decimate(src: FloatImage, out: FloatImage): void {
    const { antialias } = this;
    this.kernels.decimate(this.address(src.data), src.width, src.height, antialias.at, antialias.n, this.tapColumns, this.row, this.address(out.data), out.width, out.height);
  }

  removeLocalMean(image: FloatImage): void {
    this.kernels.removeLocalMean(this.address(image.data), image.width, image.height, this.localMean.at, this.localMean.n, this.row, this.mean);
  }

  covariance(data: Float32Array, cov: Float32Array): void {
    const { decimated, sub } = this.geometry;
    this.kernels.covariance(this.address(data), decimated.width, sub.width, sub.height, this.centred, this.means, this.cov);
    cov.set(new Float32Array(this.kernels.memory.buffer, this.cov, cov.length));
  }

  solve(k: Float32Array, y: Float32Array, x: Float32Array): boolean {
    const buffer = this.kernels.memory.buffer;
    new Float32Array(buffer, this.cov, k.length).set(k);
    new Float32Array(buffer, this.solveY, y.length).set(y);
    const solved = this.kernels.qrSolve(this.cov, this.solveY, this.solveX, this.geometry.blocks, this.solveWork) === 1;
    x.set(new Float32Array(buffer, this.solveX, x.length));
    return solved;
  }

  /** The last covariance's float means of the 25 shifted copies (CovarianceEstimator.means), for the tests. */
  covarianceMeans(): Float32Array {
    return new Float32Array(this.kernels.memory.buffer, this.means, SPEED_BLOCK_ELEMENTS).slice();
  }

  /** The last covariance's double cross sum of copies a and b (before its rounding to float), for the tests. */
  crossSum(a: number, b: number): number {
    const { width, height } = this.geometry.sub;
    return this.kernels.crossSum(this.centred, width * height * 8, a, b, width, height);
  }
}
