import { packedLayout, type PictureFormat } from "@vq/core";
import { bufferFrom, planeUniforms, stageKernel, type Bindings, type GpuContext, type GpuFrameBatch, type PassRecorder, type StageKernel, type StageKernelSpec } from "@vq/gpu-core";
import frameWgsl from "../../../../shaders/common/frame.wgsl" with { type: "text" };
import blockTermsWgsl from "../../../../shaders/speed/block-terms.wgsl" with { type: "text" };
import covarianceWgsl from "../../../../shaders/speed/covariance.wgsl" with { type: "text" };
import detailWgsl from "../../../../shaders/speed/detail.wgsl" with { type: "text" };
import exactWgsl from "../../../../shaders/speed/exact-f32.wgsl" with { type: "text" };
import log2Wgsl from "../../../../shaders/speed/log2.wgsl" with { type: "text" };
import modelWgsl from "../../../../shaders/speed/model.wgsl" with { type: "text" };
import paramsWgsl from "../../../../shaders/speed/params.wgsl" with { type: "text" };
import scoreWgsl from "../../../../shaders/speed/score.wgsl" with { type: "text" };
import type { SpeedOptions } from "../definition.ts";
import { antialiasFilter, localMeanFilter } from "../numerics/gaussian-taps.ts";
import { resampling, type PrescaleMethod, type ResampleAxis } from "../numerics/prescale.ts";
import type { PairScore } from "../numerics/speed-model.ts";
import { baseEntropy } from "../numerics/speed-score.ts";
import { SPEED_BLOCK_ELEMENTS, type SpeedGeometry } from "../numerics/speed-geometry.ts";

const f32 = Math.fround;
const PAIRS = (SPEED_BLOCK_ELEMENTS * (SPEED_BLOCK_ELEMENTS + 1)) / 2;
const PARAM_WORDS = 32;
/** params.wgsl's images, ref_stride, dist_stride and result_stride: where the batch layout goes. */
const BATCH_WORDS_AT = 28;
/** block-terms.wgsl's BLOCKS_PER_GROUP */
const BLOCKS_PER_GROUP = 32;
/** Result words per pair of pictures: the score's bits and the singular flag. */
export const PAIR_RESULT_WORDS = 2;

const KERNELS = ["decimate", "remove_local_mean", "means", "covariance", "fit", "block_terms", "score"] as const;
type Kernel = (typeof KERNELS)[number];

/** Which bindings each kernel reads, by WGSL name (its pipeline's automatic layout has exactly these). */
const KERNEL_BINDINGS: Record<Kernel, readonly string[]> = {
  decimate: ["ref_frame", "dist_frame", "planes", "params", "tables", "raw"],
  remove_local_mean: ["params", "tables", "raw", "work"],
  means: ["params", "work"],
  covariance: ["params", "work"],
  fit: ["params", "work"],
  block_terms: ["params", "work"],
  score: ["params", "work", "scores"],
};

function floatBits(x: number): number {
  return new Uint32Array(new Float32Array([x]).buffer)[0]!;
}

/**
 * Where a batch's frames are: views of the frame buffers from its first frame on, the
 * frames `refStride` and `distStride` bytes apart, and of the results from the first
 * frame's on, `resultStride` bytes apart (every offset a multiple of 256).
 */
export interface SpeedBatchViews {
  readonly ref: GPUBufferBinding;
  readonly dist: GPUBufferBinding;
  readonly results: GPUBufferBinding;
  readonly refStride: number;
  readonly distStride: number;
  readonly resultStride: number;
}

/**
 * SpEED on the GPU for one extractor: `images` pictures per frame (pairs of reference and
 * distorted), whose samples `sourceWgsl` defines, are decimated, modelled and scored
 * entirely on the GPU in libvmaf's float arithmetic; a frame reads back two words per pair.
 * Every kernel covers all frames of a batch at once (workgroup z = frame × images + image),
 * so that the fits, a sequential critical path each, run side by side.
 */
export class SpeedGpuPipeline {
  readonly resultWords: number;
  private readonly imageWords: number;
  private readonly specs: Record<Kernel, StageKernelSpec>;
  private kernels?: Record<Kernel, StageKernel>;
  private device?: GPUDevice;
  private buffers: GPUBuffer[] = [];
  /** The buffers this pipeline binds, by their WGSL names. */
  private readonly owned: Record<string, GPUBuffer> = {};
  private params?: Uint32Array<ArrayBuffer>;
  private maxBatch = 1;

  /** Result words per frame for `images` pictures (reference and distorted pairs). */
  static resultWords(images: number): number {
    return (images / 2) * PAIR_RESULT_WORDS;
  }

  /**
   * @param sourceBindings bindings beyond the frame's that the source reads (prev_ref and
   *   prev_dist for the previous frame), added to the decimation kernel's
   */
  constructor(
    private readonly label: string,
    sourceWgsl: string,
    private readonly images: number,
    private readonly geometry: SpeedGeometry,
    private readonly options: SpeedOptions,
    sourceBindings: readonly string[] = [],
  ) {
    const g = geometry;
    // params.wgsl's work_*: detail, covariance sums, means, eigenvalues, 2 flags, Q' and R, block terms
    this.imageWords = g.decimated.width * g.decimated.height + 2 * PAIRS + 2 * SPEED_BLOCK_ELEMENTS + 2 + 2 * SPEED_BLOCK_ELEMENTS ** 2 + g.blocks;
    this.resultWords = SpeedGpuPipeline.resultWords(images);
    const code = [frameWgsl, exactWgsl, log2Wgsl, paramsWgsl, sourceWgsl, detailWgsl, covarianceWgsl, modelWgsl, blockTermsWgsl, scoreWgsl].join("\n");
    // detail.wgsl's filter lengths as pipeline constants (only the kernels that read them may get them)
    const taps: Partial<Record<Kernel, Record<string, number>>> = {
      decimate: { AA_TAPS: antialiasFilter(options.speed_kernelscale).length },
      remove_local_mean: { LM_TAPS: localMeanFilter(options.speed_kernelscale).length },
    };
    const uses = (k: Kernel) => (k === "decimate" ? [...KERNEL_BINDINGS[k], ...sourceBindings] : KERNEL_BINDINGS[k]);
    this.specs = Object.fromEntries(KERNELS.map((k) => [k, { label: `${label} ${k}`, code, entryPoint: k, constants: taps[k], uses: uses(k) }])) as Record<Kernel, StageKernelSpec>;
  }

  /** `maxBatch`: the most frames one `encode` gets (the intermediates are sized by it). */
  init(gpu: GpuContext, format: PictureFormat, maxBatch: number, useRefDiff = false): void {
    const { device } = gpu;
    this.device = device;
    this.maxBatch = maxBatch;
    this.kernels = Object.fromEntries(KERNELS.map((k) => [k, stageKernel(device, this.specs[k])])) as Record<Kernel, StageKernel>;
    const create = (binding: string, label: string, size: number, usage: number, data?: Uint32Array<ArrayBuffer>) => {
      const b = device.createBuffer({ label: `${this.label} ${label}`, size: Math.max(16, size), usage: usage | GPUBufferUsage.COPY_DST });
      if (data) device.queue.writeBuffer(b, 0, data);
      this.buffers.push(b);
      this.owned[binding] = b;
    };
    const { params, tables } = this.parameters(useRefDiff, format.bitDepth);
    const { width, height } = this.geometry.decimated;
    create("planes", "planes", 64, GPUBufferUsage.UNIFORM, planeUniforms(format, packedLayout(format).planes));
    this.params = params;
    create("params", "params", PARAM_WORDS * 4, GPUBufferUsage.UNIFORM, params);
    create("tables", "tables", tables.byteLength, GPUBufferUsage.STORAGE, tables);
    create("raw", "decimated", maxBatch * this.images * width * height * 4, GPUBufferUsage.STORAGE);
    create("work", "work", maxBatch * this.images * this.imageWords * 4, GPUBufferUsage.STORAGE);
  }

  /** The params uniform (params.wgsl's SpeedParams) and the taps and prescale tables it locates. */
  private parameters(useRefDiff: boolean, bitDepth: number): { params: Uint32Array<ArrayBuffer>; tables: Uint32Array<ArrayBuffer> } {
    const g = this.geometry;
    const o = this.options;
    const aa = antialiasFilter(o.speed_kernelscale);
    const lm = localMeanFilter(o.speed_kernelscale);
    const r = g.resampled ? resampling(o.speed_prescale_method as PrescaleMethod, g.original, g.scaled) : undefined;
    const axisWords = (a?: ResampleAxis) => (a ? [...a.index, ...new Uint32Array(a.weight.buffer)] : []);
    const tables = Uint32Array.from([...new Uint32Array(aa.buffer), ...new Uint32Array(lm.buffer), ...axisWords(r?.x), ...axisWords(r?.y)]);
    const rxAt = aa.length + lm.length;
    const ryAt = rxAt + (r ? 2 * r.x.index.length : 0);
    const scale = bitDepth === 10 ? 4 : bitDepth === 12 ? 16 : bitDepth === 16 ? 256 : 1;
    const params = new Uint32Array(PARAM_WORDS);
    params.set([
      g.original.width, g.original.height, g.scaled.width, g.scaled.height,
      g.decimated.width, g.decimated.height, g.sub.width, g.sub.height,
      aa.length, 0, lm.length, aa.length,
      r ? (r.normalise ? 2 : 1) : 0, r?.x.taps ?? 0, r?.y.taps ?? 0, rxAt,
      ryAt, floatBits(1 / scale), this.imageWords, useRefDiff ? 1 : 0,
      0, g.blocksX, g.blocksY, o.speed_weight_var_mode,
      floatBits(f32(o.speed_sigma_nn)), floatBits(baseEntropy(o)), 0, 0,
      this.images, 0, 0, 0,
    ]);
    return { params, tables };
  }

  /**
   * Records the kernels for `count` frames, one compute pass each (so that `--gpu-profile`
   * shows each); `extra` binds what the source reads beyond the frames.
   */
  encode(passes: PassRecorder, views: SpeedBatchViews, count: number, extra: Bindings = {}): void {
    if (count > this.maxBatch) throw new Error(`${this.label}: a batch of ${count} frames, sized for ${this.maxBatch}`);
    this.writeStrides(views);
    // each kernel binds what it uses of these (KERNEL_BINDINGS)
    const bindings = { ref_frame: views.ref, dist_frame: views.dist, scores: views.results, ...this.owned, ...extra };
    const kernels = this.kernels!;
    const { width, height } = this.geometry.decimated;
    const run = (k: Kernel, x: number, y: number, z: number) => kernels[k].dispatch(passes, bindings, [x, y, z]);
    const images = count * this.images;
    const pairs = images / 2;
    run("decimate", Math.ceil(width / 8), Math.ceil(height / 8), images);
    run("remove_local_mean", Math.ceil(width / 8), Math.ceil(height / 8), images);
    run("means", SPEED_BLOCK_ELEMENTS, 1, images);
    run("covariance", PAIRS, 1, images);
    // eigenvalues and QR decomposition side by side
    run("fit", 2, 1, images);
    run("block_terms", Math.ceil(this.geometry.blocks / BLOCKS_PER_GROUP), 1, pairs);
    run("score", 1, 1, pairs);
  }

  /** The batch layout is fixed for a run: written (before the batch's submit) only when it changes. */
  private writeStrides(views: SpeedBatchViews): void {
    const words = [views.refStride / 4, views.distStride / 4, views.resultStride / 4];
    const params = this.params!;
    if (words.every((w, i) => params[BATCH_WORDS_AT + 1 + i] === w)) return;
    params.set(words, BATCH_WORDS_AT + 1);
    this.device!.queue.writeBuffer(this.owned.params!, 0, params);
  }

  /** Pair `index` of a frame's result words. */
  pair(words: Uint32Array, index: number): PairScore {
    const score = new Float32Array(words.buffer, words.byteOffset + index * PAIR_RESULT_WORDS * 4, 1)[0]!;
    return { score, singular: words[index * PAIR_RESULT_WORDS + 1] !== 0 };
  }

  close(): void {
    for (const b of this.buffers) b.destroy();
    this.buffers = [];
  }
}

/** The views of a runner's batch. */
export function batchViews(batch: GpuFrameBatch, results: GPUBuffer, resultOffset: number, resultStride: number): SpeedBatchViews {
  return {
    ref: bufferFrom(batch.ref, batch.base * batch.refStride),
    dist: bufferFrom(batch.dist, batch.base * batch.distStride),
    results: bufferFrom(results, resultOffset),
    refStride: batch.refStride,
    distStride: batch.distStride,
    resultStride,
  };
}
