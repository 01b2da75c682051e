import type { FeatureCollector, PictureFormat } from "@vq/core";
import { LUMA_INPUTS, type GpuContext, type GpuFrame, type GpuStage, type PassRecorder } from "@vq/gpu-core";
import { floatSsimDefinition, floatSsimOptions, ssimScale, type FloatSsimOptions } from "../float-ssim-definition.ts";
import { FloatSsimScorer } from "../numerics/float-ssim-scores.ts";
import { SsimGpuPlan } from "./ssim-gpu-plan.ts";
import type { SsimMeans } from "../numerics/ssim-statistics.ts";

/**
 * GPU twin of FloatSsimCpu: luma to f32, the box downscaling, and the SSIM map's row
 * sums on the GPU; the means and the score on the host, by the CPU's code.
 */
export class FloatSsimGpu implements GpuStage {
  readonly definition = floatSsimDefinition;
  readonly label = "float_ssim";
  /** Luma only, like libvmaf's extractor: chroma is never uploaded for it. */
  readonly inputs = LUMA_INPUTS;
  readonly temporal = floatSsimDefinition.temporal;
  readonly resultWords = SsimGpuPlan.resultWords(1);
  private plan?: SsimGpuPlan;
  private scorer?: FloatSsimScorer;
  private scale = 0;
  private readonly means: SsimMeans = { ssim: 0, l: 0, c: 0, s: 0 };

  constructor(readonly options: FloatSsimOptions) {}


  init(gpu: GpuContext, format: PictureFormat): void {
    floatSsimDefinition.checkFormat?.(this.options, format);
    this.scorer = new FloatSsimScorer(this.options, format);
    const plan = new SsimGpuPlan(gpu.device, format, "float_ssim", 1);
    let level = plan.level(format.width, format.height);
    plan.luma(level);
    const factor = ssimScale(this.options, format);
    if (factor > 1) level = plan.boxDecimate(level, factor);
    this.scale = plan.statistics(level);
    plan.seal();
    this.plan = plan;
  }

  encode(_encoder: GPUCommandEncoder, passes: PassRecorder, frame: GpuFrame, results: GPUBuffer, resultOffset: number): void {
    this.plan!.encode(passes, frame, results, resultOffset);
  }

  collect(words: Uint32Array, index: number, collector: FeatureCollector): void {
    this.scorer!.write(this.plan!.means(words, this.scale, this.means), index, collector);
  }

  close(): void {
    this.plan?.destroy();
  }
}

export function createFloatSsimGpu(options: Partial<FloatSsimOptions> = {}): FloatSsimGpu {
  return new FloatSsimGpu(floatSsimOptions.resolve(options));
}
