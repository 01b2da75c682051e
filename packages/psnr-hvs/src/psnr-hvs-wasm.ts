import { chromaSize, copyPlaneIntoKernels, KernelMemoryLayout, kernelsModule, reserveMemory, type FeatureCollector, type FeatureExtractor, type PictureFormat, type PicturePair } from "@vq/core";
import { PLANE_CSF, PLANE_MASKS as MASKS } from "./csf.ts";
import { libvmafPlaneSizes, psnrHvsDefinition, psnrHvsOptions, type PsnrHvsOptions } from "./definition.ts";
import { blocksAlong, BlockScratch, GLOBAL_VAR_SCALE, normalisedError, planeError, QUADRANT_VAR_SCALE } from "./plane-error.ts";
import { largestSample, writePsnrHvs } from "./psnr-hvs-score.ts";
import { PSNR_HVS_KERNELS_WASM } from "./wasm/psnr-hvs-kernels.wasm.ts";

/** The kernels' exports (assembly/psnr-hvs-kernels.ts); pointers are byte addresses in `memory`. */
interface PsnrHvsKernels {
  readonly memory: WebAssembly.Memory;
  heapBase(): number;
  largestSample(at: number, count: number): number;
  planeSum(
    ref: number, dist: number, narrow: number, largest: number, stride: number, width: number, height: number, csf: number, mask: number,
    globalVarScale: number, quadrantVarScale: number, work: number,
  ): number;
}

/** The compiled kernels for this thread, or undefined where the TypeScript reference runs (core's kernelsModule). */
export function psnrHvsKernelsModule(): WebAssembly.Module | undefined {
  return kernelsModule("psnr_hvs", PSNR_HVS_KERNELS_WASM);
}

/**
 * The widest samples the kernels take: up to 12 bits the DCT's coefficients stay below 2^17,
 * so their differences are exact floats. Wider samples (beyond the bit depth: invalid input,
 * where libvmaf's ints overflow) take the reference's planeError, whose doubles differ there.
 */
const WIDEST_KERNEL_SAMPLE = 4095;

/** Bytes a step of four blocks may read past a block row's end (21 samples), rounded up. */
const SLACK_BYTES = 64;

/** One plane's place in the kernels' memory: both pictures' samples and its tables. */
interface KernelPlane {
  readonly width: number;
  readonly height: number;
  readonly coefficients: number;
  /** Samples a row in the kernels' copies (the picture plane's width). */
  readonly stride: number;
  readonly ref: number;
  readonly dist: number;
  readonly csf: number;
  readonly mask: number;
}

/** libvmaf's psnr_hvs on WebAssembly SIMD kernels (ADR 0040): the same doubles as PsnrHvsCpu, the TypeScript reference. */
export class PsnrHvsWasm implements FeatureExtractor<PicturePair> {
  readonly definition = psnrHvsDefinition;
  private kernels?: PsnrHvsKernels;
  private planes: KernelPlane[] = [];
  private work = 0;
  private readonly scratch = new BlockScratch();

  constructor(
    readonly options: PsnrHvsOptions,
    private readonly module: WebAssembly.Module,
  ) {}

  init(format: PictureFormat): void {
    psnrHvsDefinition.checkFormat?.(this.options, format);
    const kernels = new WebAssembly.Instance(this.module).exports as unknown as PsnrHvsKernels;
    const layout = new KernelMemoryLayout(kernels.heapBase(), SLACK_BYTES);
    const bytes = format.bitDepth > 8 ? 2 : 1;
    const chroma = chromaSize(format);
    this.planes = libvmafPlaneSizes(format).map(({ width, height }, p) => {
      const stride = p === 0 ? format.width : chroma.width;
      const samples = stride * (p === 0 ? format.height : chroma.height) * bytes;
      return {
        width,
        height,
        coefficients: blocksAlong(width) * blocksAlong(height) * 64,
        stride,
        ref: layout.take(samples),
        dist: layout.take(samples),
        csf: layout.take(64 * 4),
        mask: layout.take(64 * 4),
      };
    });
    // the reference blocks, the distorted blocks, both in i16, the DCT's transpose and the terms: 64 v128 each
    this.work = layout.take(6 * 64 * 16);
    reserveMemory(kernels.memory, layout.end);
    const buffer = kernels.memory.buffer;
    this.planes.forEach((plane, p) => {
      new Float32Array(buffer, plane.csf, 64).set(PLANE_CSF[p]!);
      new Float32Array(buffer, plane.mask, 64).set(MASKS[p]!);
    });
    this.kernels = kernels;
  }

  extract(frame: PicturePair, index: number, collector: FeatureCollector): void {
    const kernels = this.kernels;
    if (!kernels) throw new Error("psnr_hvs: extract before init");
    const bitDepth = frame.ref.bitDepth;
    const narrow = bitDepth === 8;
    const buffer = kernels.memory.buffer;
    const errors = [0, 0, 0] as [number, number, number];
    for (let p = 0; p < 3; p++) {
      const plane = this.planes[p]!;
      const ref = frame.ref.planes[p]!;
      const dist = frame.dist.planes[p]!;
      copyPlaneIntoKernels(buffer, ref, plane.ref, plane.stride, narrow);
      copyPlaneIntoKernels(buffer, dist, plane.dist, plane.stride, narrow);
      const count = plane.stride * ref.height;
      const largest = narrow ? 255 : Math.max(kernels.largestSample(plane.ref, count), kernels.largestSample(plane.dist, count));
      if (largest > WIDEST_KERNEL_SAMPLE) {
        errors[p] = planeError(ref, dist, plane.width, plane.height, bitDepth, PLANE_CSF[p]!, MASKS[p]!, this.scratch);
        continue;
      }
      const sum = kernels.planeSum(plane.ref, plane.dist, narrow ? 1 : 0, largest, plane.stride, plane.width, plane.height, plane.csf, plane.mask, GLOBAL_VAR_SCALE, QUADRANT_VAR_SCALE, this.work);
      errors[p] = normalisedError(sum, plane.coefficients, bitDepth);
    }
    writePsnrHvs(errors, index, collector, bitDepth, (p) => largestSample(frame, p));
  }

  flush(_collector: FeatureCollector): void {}

  close(): void {
    this.kernels = undefined;
    this.planes = [];
  }
}

export function createPsnrHvsWasm(module: WebAssembly.Module, options: Partial<PsnrHvsOptions> = {}): PsnrHvsWasm {
  return new PsnrHvsWasm(psnrHvsOptions.resolve(options), module);
}
