import { packedLayout, VqError, type FeatureCollector, type PictureFormat } from "@vq/core";
import { planeUniforms, stageKernel, type GpuContext, type GpuFrame, type GpuStage, type PassRecorder, type StageKernel } from "@vq/gpu-core";
import frameWgsl from "../../../../shaders/common/frame.wgsl" with { type: "text" };
import u64Wgsl from "../../../../shaders/common/u64.wgsl" with { type: "text" };
import ciedeWgsl from "../../../../shaders/ciede/ciede.wgsl" with { type: "text" };
import deltaEWgsl from "../../../../shaders/ciede/delta-e.wgsl" with { type: "text" };
import df64Wgsl from "../../../../shaders/ciede/df64.wgsl" with { type: "text" };
import f32MathWgsl from "../../../../shaders/ciede/f32-math.wgsl" with { type: "text" };
import labWgsl from "../../../../shaders/ciede/lab.wgsl" with { type: "text" };
import { ciedeUniforms } from "./ciede-gpu-params.ts";
import { ciedeScore } from "../ciede-score.ts";
import { CIEDE_FEATURE, ciedeDefinition, ciedeOptions, type CiedeOptions } from "../definition.ts";
import { hasFusedFma } from "./fused-fma.ts";

export const CIEDE_KERNEL = { label: "ciede", code: [frameWgsl, u64Wgsl, df64Wgsl, f32MathWgsl, labWgsl, deltaEWgsl, ciedeWgsl].join("\n") };

/** The kernel's sum is 32.32 fixed point. */
const FRACTION_SCALE = 2 ** -32;

/**
 * GPU twin of CiedeCpu: one kernel converts both colours of every pixel to Lab in f32
 * pairs (exact enough that L, a, b are libvmaf's floats), takes ΔE00 in f32 and sums the
 * frame exactly in fixed point; the score comes from that sum by the CPU's ciedeScore.
 * Error budget: adr/0005-ciede-on-the-gpu.md.
 */
export class CiedeGpu implements GpuStage {
  readonly definition = ciedeDefinition;
  readonly label = "ciede";
  readonly temporal = ciedeDefinition.temporal;
  readonly resultWords = 2;
  private kernel?: StageKernel;
  private planes?: GPUBuffer;
  private params?: GPUBuffer;
  private rows = 0;
  private pixels = 0;

  constructor(readonly options: CiedeOptions) {}

  async init(gpu: GpuContext, format: PictureFormat): Promise<void> {
    ciedeDefinition.checkFormat?.(this.options, format);
    const limit = gpu.device.limits.maxComputeWorkgroupsPerDimension;
    if (format.height > limit) throw new VqError(`feature ciede: ${format.height} rows exceed this GPU's dispatch limit of ${limit}`);
    this.rows = format.height;
    this.pixels = format.width * format.height;
    const fused = await hasFusedFma(gpu.device);
    this.kernel = stageKernel(gpu.device, { ...CIEDE_KERNEL, constants: { FUSED_FMA: fused ? 1 : 0 } });
    this.planes = gpu.device.createBuffer({ label: "ciede planes", size: 64, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    gpu.device.queue.writeBuffer(this.planes, 0, planeUniforms(format, packedLayout(format).planes));
    const params = ciedeUniforms(format);
    this.params = gpu.device.createBuffer({ label: "ciede params", size: params.byteLength, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    gpu.device.queue.writeBuffer(this.params, 0, params);
  }

  encode(_encoder: GPUCommandEncoder, passes: PassRecorder, frame: GpuFrame, results: GPUBuffer, resultOffset: number): void {
    const sum = { buffer: results, offset: resultOffset, size: this.resultWords * 4 };
    this.kernel!.dispatch(passes, { ref_frame: frame.ref, dist_frame: frame.dist, planes: this.planes!, sum, ciede: this.params! }, this.rows);
  }

  collect(words: Uint32Array, index: number, collector: FeatureCollector): void {
    const sum = (words[1]! * 4294967296 + words[0]!) * FRACTION_SCALE;
    collector.append(CIEDE_FEATURE, index, ciedeScore(sum, this.pixels));
  }

  close(): void {
    this.planes?.destroy();
    this.params?.destroy();
  }
}

export function createCiedeGpu(options: Partial<CiedeOptions> = {}): CiedeGpu {
  return new CiedeGpu(ciedeOptions.resolve(options));
}
