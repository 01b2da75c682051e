import type { FeatureCollector, FeatureEntry, OptionDef, PictureFormat, PlaneLayout } from "@vq/core";
import type { GpuContext } from "./device.ts";

/*
 * The contract between the frame runner and the GPU stages: what a stage is given (frames,
 * batches, a pass recorder) and what it implements. ADR 0010.
 */

/** A frame pair on the GPU: views of the reference and distorted frames, uploaded once. */
export interface GpuFrame {
  readonly index: number;
  /**
   * Raw frame bytes (Y4M layout) as 32-bit words: 8-bit samples stay packed 4 to a word.
   * A view into the batch's buffer (its offset a multiple of 256); bind it as it is. The
   * object is the same for every frame that lands at this place of the ring, so stages
   * may key bind-group caches on it.
   */
  readonly ref: GPUBufferBinding;
  readonly dist: GPUBufferBinding;
  readonly format: PictureFormat;
  readonly planes: readonly PlaneLayout[];
}

/**
 * Consecutive frames of one submission, back to back in one buffer per side: frame
 * `first + f` (f < count) starts at byte `(base + f) * refStride` of `ref` and
 * `(base + f) * distStride` of `dist`. Batched kernels take the frame from the workgroup's
 * z and reach the frame's bytes with the stride; `base` is 0 except when subsampling hands
 * a stage single frames.
 */
export interface GpuFrameBatch {
  /** Index (in the video) of the batch's first frame. */
  readonly first: number;
  readonly count: number;
  readonly base: number;
  readonly ref: GPUBuffer;
  readonly dist: GPUBuffer;
  /** Bytes between frames, multiples of 256. */
  readonly refStride: number;
  readonly distStride: number;
  /** Per-frame views of the batch, `frames[f]` for frame `first + f`. */
  readonly frames: readonly GpuFrame[];
  readonly format: PictureFormat;
  readonly planes: readonly PlaneLayout[];
}

/** How a stage records its compute passes (with GPU timestamps when profiling). */
export interface PassRecorder {
  beginComputePass(label: string): GPUComputePassEncoder;
}

/** How much of one side of the frame pair a stage reads. */
export type FrameSideInput = "none" | "luma" | "all";

/** Which samples of the frame pair a stage reads; the runner uploads only what some stage reads. */
export interface FrameInputs {
  readonly reference: FrameSideInput;
  readonly distorted: FrameSideInput;
}

/** Luma of both pictures: what most of libvmaf's extractors read. */
export const LUMA_INPUTS: FrameInputs = { reference: "luma", distorted: "luma" };
/** Every plane of both pictures: what a stage without `inputs` reads. */
export const ALL_INPUTS: FrameInputs = { reference: "all", distorted: "all" };

/**
 * A GPU feature extractor as the frame runner drives it: it records its kernels into the
 * frame's command encoder and writes its raw results (32-bit words) into its slice of
 * the frame's result buffer; after the frame's single readback it turns those words into
 * scores. Results of several stages share one readback.
 */
export interface GpuStage {
  readonly label: string;
  /** Needs every frame (libvmaf's TEMPORAL flag): not skipped by subsampling. */
  readonly temporal?: boolean;
  /** 32-bit words of results per frame. */
  readonly resultWords: number;
  /** What it reads of the frame pair (default: every plane of both). Unread planes are not uploaded. */
  readonly inputs?: FrameInputs;
  /** `maxBatch`: the most frames an `encodeBatch` call will get (size per-frame buffers by it). */
  init(gpu: GpuContext, format: PictureFormat, maxBatch: number): void | Promise<void>;
  /** Records this frame's work. `results` is bound from `resultOffset` (bytes) on. */
  encode?(encoder: GPUCommandEncoder, passes: PassRecorder, frame: GpuFrame, results: GPUBuffer, resultOffset: number): void;
  /**
   * Records the work of every frame of a batch in one set of dispatches (workgroup z = frame),
   * which costs what one frame's dispatches cost on the host and fills the GPU at small
   * scales. Frame f's result words go to `resultOffset + f * resultStride` (bytes). Stages
   * without it get `encode` once per frame.
   */
  encodeBatch?(encoder: GPUCommandEncoder, passes: PassRecorder, batch: GpuFrameBatch, results: GPUBuffer, resultOffset: number, resultStride: number): void;
  /** Turns this frame's result words into scores. */
  collect(words: Uint32Array, index: number, collector: FeatureCollector): void;
  flush?(collector: FeatureCollector): void | Promise<void>;
  close?(): void;
}

/** A metric whose GPU twin is a GpuStage. */
export type GpuFeatureEntry<T extends Record<string, OptionDef> = any> = FeatureEntry<T, GpuStage>;
