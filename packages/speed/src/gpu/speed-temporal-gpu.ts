import { alignUp, packedLayout, type FeatureCollector, type PictureFormat } from "@vq/core";
import { LUMA_INPUTS, stageKernel, type GpuContext, type GpuFrameBatch, type GpuStage, type PassRecorder, type StageKernel } from "@vq/gpu-core";
import keepLumaWgsl from "../../../../shaders/speed/keep-luma.wgsl" with { type: "text" };
import temporalSourceWgsl from "../../../../shaders/speed/temporal-source.wgsl" with { type: "text" };
import { speedTemporalDefinition, speedTemporalName, speedTemporalOptions, type SpeedTemporalOptions } from "../definition.ts";
import { SpeedGpuPipeline, batchViews } from "./speed-gpu-pipeline.ts";
import { speedGeometry } from "../numerics/speed-geometry.ts";

/** the reference's and the distorted's frame difference */
const IMAGES = 2;
const KEEP_LUMA = { label: "speed_temporal keep luma", code: keepLumaWgsl, entryPoint: "keep_luma" };

/**
 * GPU twin of SpeedTemporalCpu, all frames of a batch in one set of dispatches. A frame's
 * previous frame is the one before it in the batch; for the batch's first frame, the
 * stage's own copy of the previous batch's last luma (copied after the batch's kernels,
 * in the same submission), so it does not depend on how many batches the runner keeps
 * in flight.
 */
export class SpeedTemporalGpu implements GpuStage {
  readonly definition = speedTemporalDefinition;
  readonly label = "speed_temporal";
  /** Luma only, like libvmaf's extractor: chroma is never uploaded for it. */
  readonly inputs = LUMA_INPUTS;
  readonly temporal = true;
  readonly resultWords = SpeedGpuPipeline.resultWords(IMAGES);
  private readonly name: string;
  private pipeline?: SpeedGpuPipeline;
  private previous?: { ref: GPUBuffer; dist: GPUBuffer };
  private lumaBytes = 0;
  private keep?: StageKernel;

  constructor(readonly options: SpeedTemporalOptions) {
    this.name = speedTemporalName(options);
  }

  init(gpu: GpuContext, format: PictureFormat, maxBatch: number): void {
    speedTemporalDefinition.checkFormat?.(this.options, format);
    this.close();
    const geometry = speedGeometry(format, this.options.speed_prescale, "feature speed_temporal");
    this.pipeline = new SpeedGpuPipeline(this.label, temporalSourceWgsl, IMAGES, geometry, { ...this.options, speed_weight_var_mode: 0 }, ["prev_ref", "prev_dist"]);
    this.pipeline.init(gpu, format, maxBatch, this.options.speed_use_ref_diff);
    // the luma plane comes first in the frame buffer; copies move whole words
    const luma = packedLayout(format).planes[0]!;
    this.lumaBytes = alignUp(luma.width * luma.height * (format.bitDepth > 8 ? 2 : 1), 4);
    const previous = (label: string) => gpu.device.createBuffer({ label: `speed_temporal previous ${label}`, size: this.lumaBytes, usage: GPUBufferUsage.STORAGE });
    this.previous = { ref: previous("ref"), dist: previous("dist") };
    this.keep = stageKernel(gpu.device, KEEP_LUMA);
  }

  /** The batch's frames, then its last frame's luma kept for the next batch. */
  encodeBatch(_encoder: GPUCommandEncoder, passes: PassRecorder, batch: GpuFrameBatch, results: GPUBuffer, resultOffset: number, resultStride: number): void {
    const prev = this.previous!;
    // The video's first frame has no previous one: its score is 0 (collect), whatever the kernels make of it.
    const previous = { prev_ref: prev.ref, prev_dist: prev.dist };
    if (batch.first > 0 || batch.count > 1) this.pipeline!.encode(passes, batchViews(batch, results, resultOffset, resultStride), batch.count, previous);
    const last = batch.frames[batch.count - 1]!;
    this.keep!.dispatch(passes, { ref_frame: last.ref, dist_frame: last.dist, ...previous }, Math.min(Math.ceil(this.lumaBytes / 4 / 256), 4096));
  }

  collect(words: Uint32Array, index: number, collector: FeatureCollector): void {
    collector.append(this.name, index, index === 0 ? 0 : this.pipeline!.pair(words, 0).score);
  }

  close(): void {
    this.pipeline?.close();
    this.previous?.ref.destroy();
    this.previous?.dist.destroy();
    this.previous = undefined;
  }
}

export function createSpeedTemporalGpu(options: Partial<SpeedTemporalOptions> = {}): SpeedTemporalGpu {
  return new SpeedTemporalGpu(speedTemporalOptions.resolve(options));
}
