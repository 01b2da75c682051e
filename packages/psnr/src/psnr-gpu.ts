import { packedLayout, Uint64Sum, VqError, type FeatureCollector, type PictureFormat } from "@vq/core";
import { computePipeline, planeUniforms, type GpuContext, type GpuFrame, type GpuStage, type PassRecorder } from "@vq/gpu-core";
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
  private pipeline?: GPUComputePipeline;
  private uniforms?: GPUBuffer;
  private bindGroups = new WeakMap<object, GPUBindGroup>();
  private device?: GPUDevice;
  private rows = 0;
  private readonly sse = new Uint64Sum();

  constructor(readonly options: PsnrOptions) {}

  init(gpu: GpuContext, format: PictureFormat): void {
    psnrDefinition.checkFormat?.(this.options, format);
    const { planes } = packedLayout(format);
    this.scorer = new PsnrScorer(this.options, format, planes);
    this.rows = Math.max(...planes.slice(0, this.scorer.planes).map((p) => p.height));
    if (this.rows > gpu.device.limits.maxComputeWorkgroupsPerDimension) {
      throw new VqError(`feature psnr: ${format.height} rows exceed this GPU's dispatch limit of ${gpu.device.limits.maxComputeWorkgroupsPerDimension}`);
    }
    this.device = gpu.device;
    this.pipeline = computePipeline(gpu.device, PSNR_SSE_KERNEL);
    this.uniforms = gpu.device.createBuffer({ label: "psnr planes", size: 64, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    gpu.device.queue.writeBuffer(this.uniforms, 0, planeUniforms(format, planes));
  }

  encode(_encoder: GPUCommandEncoder, passes: PassRecorder, frame: GpuFrame, results: GPUBuffer, resultOffset: number): void {
    const pass = passes.beginComputePass("psnr sse");
    pass.setPipeline(this.pipeline!);
    pass.setBindGroup(0, this.bindGroup(frame, results, resultOffset));
    pass.dispatchWorkgroups(this.rows, 1, this.scorer!.planes);
    pass.end();
  }

  /** Bind groups depend only on which slot's buffers a frame uses: built once per slot. */
  private bindGroup(frame: GpuFrame, results: GPUBuffer, resultOffset: number): GPUBindGroup {
    let g = this.bindGroups.get(frame.ref);
    if (!g) {
      g = this.device!.createBindGroup({
        layout: this.pipeline!.getBindGroupLayout(0),
        entries: [
          { binding: 0, resource: frame.ref },
          { binding: 1, resource: frame.dist },
          { binding: 2, resource: { buffer: this.uniforms! } },
          { binding: 3, resource: { buffer: results, offset: resultOffset, size: this.resultWords * 4 } },
        ],
      });
      this.bindGroups.set(frame.ref, g);
    }
    return g;
  }

  collect(words: Uint32Array, index: number, collector: FeatureCollector): void {
    for (let p = 0; p < this.scorer!.planes; p++) {
      this.sse.reset();
      this.sse.addParts(words[2 * p + 1]!, words[2 * p]!);
      this.scorer!.score(p, this.sse, index, collector);
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
