import { alignUp, packedLayout, type FeatureCollector, type PictureFormat } from "@vq/core";
import { LUMA_INPUTS, computePipeline, type GpuContext, type GpuFrame, type GpuFrameBatch, type GpuStage, type PassRecorder } from "@vq/gpu-core";
import keepLumaWgsl from "../../../shaders/speed/keep-luma.wgsl" with { type: "text" };
import temporalSourceWgsl from "../../../shaders/speed/temporal-source.wgsl" with { type: "text" };
import { speedTemporalDefinition, speedTemporalName, speedTemporalOptions, type SpeedTemporalOptions } from "./definition.ts";
import { SpeedGpuPipeline, batchViews } from "./speed-gpu-pipeline.ts";
import { speedGeometry } from "./speed-geometry.ts";

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
  private keep?: GPUComputePipeline;
  private keepGroups = new WeakMap<object, GPUBindGroup>();
  private device?: GPUDevice;

  constructor(readonly options: SpeedTemporalOptions) {
    this.name = speedTemporalName(options);
  }

  init(gpu: GpuContext, format: PictureFormat, maxBatch: number): void {
    speedTemporalDefinition.checkFormat?.(this.options, format);
    this.close();
    const geometry = speedGeometry(format, this.options.speed_prescale, "feature speed_temporal");
    this.pipeline = new SpeedGpuPipeline(this.label, temporalSourceWgsl, IMAGES, geometry, { ...this.options, speed_weight_var_mode: 0 }, [7, 8]);
    this.pipeline.init(gpu, format, maxBatch, this.options.speed_use_ref_diff);
    // the luma plane comes first in the frame buffer; copies move whole words
    const luma = packedLayout(format).planes[0]!;
    this.lumaBytes = alignUp(luma.width * luma.height * (format.bitDepth > 8 ? 2 : 1), 4);
    const previous = (label: string) => gpu.device.createBuffer({ label: `speed_temporal previous ${label}`, size: this.lumaBytes, usage: GPUBufferUsage.STORAGE });
    this.previous = { ref: previous("ref"), dist: previous("dist") };
    this.keep = computePipeline(gpu.device, KEEP_LUMA);
    this.device = gpu.device;
  }

  /** The batch's frames, then its last frame's luma kept for the next batch. */
  encodeBatch(_encoder: GPUCommandEncoder, passes: PassRecorder, batch: GpuFrameBatch, results: GPUBuffer, resultOffset: number, resultStride: number): void {
    const prev = this.previous!;
    // The video's first frame has no previous one: its score is 0 (collect), whatever the kernels make of it.
    if (batch.first > 0 || batch.count > 1) this.pipeline!.encode(passes, batchViews(batch, results, resultOffset, resultStride), batch.count, { 7: prev.ref, 8: prev.dist });
    const pass = passes.beginComputePass("speed_temporal keep luma");
    pass.setPipeline(this.keep!);
    pass.setBindGroup(0, this.keepGroup(batch.frames[batch.count - 1]!));
    pass.dispatchWorkgroups(Math.min(Math.ceil(this.lumaBytes / 4 / 256), 4096));
    pass.end();
  }

  private keepGroup(frame: GpuFrame): GPUBindGroup {
    let g = this.keepGroups.get(frame.ref);
    if (!g) {
      const prev = this.previous!;
      g = this.device!.createBindGroup({
        label: "speed_temporal keep luma",
        layout: this.keep!.getBindGroupLayout(0),
        entries: [
          { binding: 0, resource: frame.ref },
          { binding: 1, resource: frame.dist },
          { binding: 7, resource: { buffer: prev.ref } },
          { binding: 8, resource: { buffer: prev.dist } },
        ],
      });
      this.keepGroups.set(frame.ref, g);
    }
    return g;
  }

  collect(words: Uint32Array, index: number, collector: FeatureCollector): void {
    collector.append(this.name, index, index === 0 ? 0 : this.pipeline!.pair(words, 0).score);
  }

  close(): void {
    this.pipeline?.close();
    this.previous?.ref.destroy();
    this.previous?.dist.destroy();
    this.previous = undefined;
    this.keepGroups = new WeakMap();
  }
}

export function createSpeedTemporalGpu(options: Partial<SpeedTemporalOptions> = {}): SpeedTemporalGpu {
  return new SpeedTemporalGpu(speedTemporalOptions.resolve(options));
}
