import { packedLayout, Uint64Sum, VqError, type FeatureCollector, type PictureFormat } from "@vq/core";
import { planeUniforms, stageKernel, type GpuContext, type GpuFrame, type GpuStage, type PassRecorder, type StageKernel } from "@vq/gpu-core";
import frameWgsl from "../../../shaders/common/frame.wgsl" with { type: "text" };
import u64Wgsl from "../../../shaders/common/u64.wgsl" with { type: "text" };
import sseWgsl from "../../../shaders/psnr/sse.wgsl" with { type: "text" };
import { psnrDefinition, psnrOptions, type PsnrOptions } from "./definition.ts";
import { PsnrScorer } from "./psnr-score.ts";

export const PSNR_SSE_KERNEL = { label: "psnr sse", code: [frameWgsl, u64Wgsl, sseWgsl].join("\n") };

/**
 * GPU twin of PsnrCpu: one dispatch sums the squared errors of every plane exactly
 * (64-bit sums on u32 pairs), and the scores are computed from the read-back sums by
 * the same PsnrScorer the CPU uses.
 */
export class PsnrGpu implements GpuStage {
  readonly definition = psnrDefinition;
  readonly label = "psnr";
  readonly temporal = psnrDefinition.temporal;
  readonly resultWords = 6;
  private scorer?: PsnrScorer;
  private sse?: StageKernel;
  private uniforms?: GPUBuffer;
  private rows = 0;
  private readonly sum = new Uint64Sum();

  constructor(readonly options: PsnrOptions) {}

  init(gpu: GpuContext, format: PictureFormat): void {
    psnrDefinition.checkFormat?.(this.options, format);
    const { planes } = packedLayout(format);
    this.scorer = new PsnrScorer(this.options, format, planes);
    this.rows = Math.max(...planes.slice(0, this.scorer.planes).map((p) => p.height));
    if (this.rows > gpu.device.limits.maxComputeWorkgroupsPerDimension) {
      throw new VqError(`feature psnr: ${format.height} rows exceed this GPU's dispatch limit of ${gpu.device.limits.maxComputeWorkgroupsPerDimension}`);
    }
    this.sse = stageKernel(gpu.device, PSNR_SSE_KERNEL);
    this.uniforms = gpu.device.createBuffer({ label: "psnr planes", size: 64, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    gpu.device.queue.writeBuffer(this.uniforms, 0, planeUniforms(format, planes));
  }

  encode(_encoder: GPUCommandEncoder, passes: PassRecorder, frame: GpuFrame, results: GPUBuffer, resultOffset: number): void {
    const sse = { buffer: results, offset: resultOffset, size: this.resultWords * 4 };
    this.sse!.dispatch(passes, { ref_frame: frame.ref, dist_frame: frame.dist, planes: this.uniforms!, sse }, [this.rows, 1, this.scorer!.planes]);
  }

  collect(words: Uint32Array, index: number, collector: FeatureCollector): void {
    for (let p = 0; p < this.scorer!.planes; p++) {
      this.sum.reset();
      this.sum.addParts(words[2 * p + 1]!, words[2 * p]!);
      this.scorer!.score(p, this.sum, index, collector);
    }
  }

  flush(collector: FeatureCollector): void {
    this.scorer?.flush(collector);
  }

  close(): void {
    this.uniforms?.destroy();
  }
}

export function createPsnrGpu(options: Partial<PsnrOptions> = {}): PsnrGpu {
  return new PsnrGpu(psnrOptions.resolve(options));
}
