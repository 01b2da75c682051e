import { copyPlaneIntoKernels, KernelMemoryLayout, kernelsModule, reserveMemory, type Plane } from "@vq/core";
import { decimatedSize } from "../numerics/decimation-geometry.ts";
import { lumaScale } from "../numerics/luma-float.ts";
import { C1, C2, C3, GAUSSIAN_TAPS, WINDOW } from "../numerics/ssim-constants.ts";
import type { SsimMeans } from "../numerics/ssim-statistics.ts";
import { LPF_9X9 } from "../numerics/wavelet-decimate.ts";
import { windowMeans, type SsimSums } from "../numerics/window-means.ts";
import { SSIM_KERNELS_WASM } from "./wasm/ssim-kernels.wasm.ts";

/** The kernels' exports (assembly/ssim-kernels.ts); pointers are byte addresses in `memory`. */
interface SsimKernels {
  readonly memory: WebAssembly.Memory;
  heapBase(): number;
  mapSumSsim(): number;
  mapSumL(): number;
  mapSumC(): number;
  mapSumS(): number;
  lumaToFloat(src: number, narrow: number, n: number, dst: number, inv: number): void;
  boxDecimate(srcRef: number, srcCmp: number, width: number, height: number, factor: number, dstRef: number, dstCmp: number, outW: number, outH: number, tap: number): void;
  waveletDecimate(srcRef: number, srcCmp: number, width: number, height: number, dstRef: number, dstCmp: number, outW: number, outH: number, lpf: number, split: number): void;
  ssimStatistics(ref: number, cmp: number, width: number, height: number, ring: number, rowBytes: number, taps: number, c1: number, c2: number, c3: number): void;
}

/** The compiled kernels for this thread, or undefined where the TypeScript reference runs (core's kernelsModule). */
export function ssimKernelsModule(): WebAssembly.Module | undefined {
  return kernelsModule("ssim", SSIM_KERNELS_WASM);
}

/** Floats a 4-column step may read past a plane's end (the horizontal pass: 3; wavelet decimation: 1). */
const SLACK_BYTES = 64;

/** A float plane in the kernels' memory: byte address of sample (0, 0), rows `width` apart. */
export interface WasmPlane {
  readonly width: number;
  readonly height: number;
  readonly at: number;
}

/**
 * One module instance laid out for one picture format (ADR 0040): the taps, a staging area
 * for a frame's luma copy, the SSIM ring, and the float planes the extractor asks for
 * (`plane`, before `ready`). The arithmetic is the kernels'; the float tails (the means'
 * division) are the reference's own functions.
 */
export class SsimWasmWorkspace {
  private readonly kernels: SsimKernels;
  private readonly layout: KernelMemoryLayout;
  private readonly taps: number;
  private readonly lpf: number;
  private readonly staging: number;
  /** waveletDecimate's even and odd samples of both planes: four rings of 9 rows, sized for the input. */
  private readonly split: number;
  private readonly ring: number;
  private readonly ringRowBytes: number;
  /** The last map's double sums, as SsimStatistics.sums. */
  readonly sums: SsimSums = { ssim: 0, l: 0, c: 0, s: 0 };

  /** `width` × `height`: the input luma; `ssimWidth`: the widest picture SSIM is computed on. */
  constructor(module: WebAssembly.Module, width: number, height: number, ssimWidth: number) {
    this.kernels = new WebAssembly.Instance(module).exports as unknown as SsimKernels;
    this.layout = new KernelMemoryLayout(this.kernels.heapBase());
    this.taps = this.take(GAUSSIAN_TAPS.length * 4);
    this.lpf = this.take(LPF_9X9.length * 4);
    this.staging = this.take(width * height * 2 + SLACK_BYTES);
    this.split = this.take(4 * 9 * (Math.ceil((width + 1) / 2 / 4) * 16));
    // ring rows rounded up to whole 4-column steps: a row's last step writes past outW
    this.ringRowBytes = Math.ceil(Math.max(0, ssimWidth - WINDOW + 1) / 4) * 16;
    this.ring = this.take(5 * WINDOW * this.ringRowBytes);
  }

  private take(bytes: number): number {
    return this.layout.take(bytes);
  }

  /** A float plane of this size (call before `ready`). */
  plane(width: number, height: number): WasmPlane {
    return { width, height, at: this.take(width * height * 4 + SLACK_BYTES) };
  }

  /** Grows the memory to the layout and writes the taps; planes are taken before this. */
  ready(): void {
    reserveMemory(this.kernels.memory, this.layout.end);
    const buffer = this.kernels.memory.buffer;
    new Float32Array(buffer, this.taps, GAUSSIAN_TAPS.length).set(GAUSSIAN_TAPS);
    new Float32Array(buffer, this.lpf, LPF_9X9.length).set(LPF_9X9);
  }

  /** lumaToFloat: one luma plane copied in and converted into `to` (its size). */
  loadLuma(plane: Plane, bitDepth: number, to: WasmPlane): void {
    const narrow = bitDepth === 8;
    copyPlaneIntoKernels(this.kernels.memory.buffer, plane, this.staging, to.width, narrow);
    this.kernels.lumaToFloat(this.staging, narrow ? 1 : 0, to.width * to.height, to.at, lumaScale(bitDepth));
  }

  /** A plane's samples, a view of the kernels' memory (valid until the memory grows). */
  view(plane: WasmPlane): Float32Array {
    return new Float32Array(this.kernels.memory.buffer, plane.at, plane.width * plane.height);
  }

  /** boxDecimate of both planes by `factor` into `toRef` and `toCmp` (decimatedSize of them). */
  boxDecimate(fromRef: WasmPlane, fromCmp: WasmPlane, factor: number, toRef: WasmPlane, toCmp: WasmPlane): void {
    this.kernels.boxDecimate(fromRef.at, fromCmp.at, fromRef.width, fromRef.height, factor, toRef.at, toCmp.at, toRef.width, toRef.height, Math.fround(1 / (factor * factor)));
  }

  /** waveletDecimate of both planes into the next pyramid level's. */
  waveletDecimate(fromRef: WasmPlane, fromCmp: WasmPlane, toRef: WasmPlane, toCmp: WasmPlane): void {
    if (toRef.width !== decimatedSize(fromRef.width, 2) || toRef.height !== decimatedSize(fromRef.height, 2)) throw new Error("SsimWasmWorkspace: pyramid level size");
    this.kernels.waveletDecimate(fromRef.at, fromCmp.at, fromRef.width, fromRef.height, toRef.at, toCmp.at, toRef.width, toRef.height, this.lpf, this.split);
  }

  /** SsimStatistics.compute on two planes of one size. */
  statistics(ref: WasmPlane, cmp: WasmPlane, out: SsimMeans): SsimMeans {
    const { width, height } = ref;
    if (width - WINDOW + 1 > this.ringRowBytes / 4) throw new Error(`SsimWasmWorkspace: width ${width} exceeds the ring`);
    const k = this.kernels;
    k.ssimStatistics(ref.at, cmp.at, width, height, this.ring, this.ringRowBytes, this.taps, C1, C2, C3);
    const sums = this.sums;
    sums.ssim = k.mapSumSsim();
    sums.l = k.mapSumL();
    sums.c = k.mapSumC();
    sums.s = k.mapSumS();
    return windowMeans(sums, (width - WINDOW + 1) * (height - WINDOW + 1), out);
  }
}
