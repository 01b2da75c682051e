import type { FeatureCollector, PictureFormat } from "@vq/core";
import type { GpuContext, GpuFrameBatch, GpuStage, PassRecorder } from "@vq/gpu-core";
import chromaSourceWgsl from "../../../../shaders/speed/chroma-source.wgsl" with { type: "text" };
import { chromaPlaneSize, speedChromaDefinition, speedChromaNames, speedChromaOptions, type SpeedChromaNames, type SpeedChromaOptions } from "../definition.ts";
import { writeChromaScores } from "../cpu/speed-chroma-cpu.ts";
import { SpeedGpuPipeline, batchViews } from "./speed-gpu-pipeline.ts";
import { speedGeometry } from "../numerics/speed-geometry.ts";

/** U ref, U dis, V ref, V dis */
const IMAGES = 4;

/**
 * GPU twin of SpeedChromaCpu: both chroma planes are decimated, modelled and scored on the
 * GPU; a frame reads back the U and V scores and whether their covariances were singular,
 * which the host combines and clips as the CPU does. All frames of a batch in one set of
 * dispatches.
 */
export class SpeedChromaGpu implements GpuStage {
  readonly definition = speedChromaDefinition;
  readonly label = "speed_chroma";
  readonly temporal = false;
  readonly resultWords = SpeedGpuPipeline.resultWords(IMAGES);
  private readonly names: SpeedChromaNames;
  private pipeline?: SpeedGpuPipeline;

  constructor(readonly options: SpeedChromaOptions) {
    this.names = speedChromaNames(options);
  }

  init(gpu: GpuContext, format: PictureFormat, maxBatch: number): void {
    speedChromaDefinition.checkFormat?.(this.options, format);
    this.close();
    const geometry = speedGeometry(chromaPlaneSize(format), this.options.speed_prescale, "feature speed_chroma");
    this.pipeline = new SpeedGpuPipeline(this.label, chromaSourceWgsl, IMAGES, geometry, this.options);
    this.pipeline.init(gpu, format, maxBatch);
  }

  encodeBatch(_encoder: GPUCommandEncoder, passes: PassRecorder, batch: GpuFrameBatch, results: GPUBuffer, resultOffset: number, resultStride: number): void {
    this.pipeline!.encode(passes, batchViews(batch, results, resultOffset, resultStride), batch.count);
  }

  collect(words: Uint32Array, index: number, collector: FeatureCollector): void {
    const p = this.pipeline!;
    writeChromaScores(this.names, this.options.speed_max_val, p.pair(words, 0), p.pair(words, 1), index, collector);
  }

  close(): void {
    this.pipeline?.close();
  }
}

export function createSpeedChromaGpu(options: Partial<SpeedChromaOptions> = {}): SpeedChromaGpu {
  return new SpeedChromaGpu(speedChromaOptions.resolve(options));
}
