import type { FeatureCollector, PictureFormat } from "@vq/core";
import { LUMA_INPUTS, type GpuContext, type GpuFrame, type GpuStage, type PassRecorder } from "@vq/gpu-core";
import { floatMsSsimDefinition, floatMsSsimOptions, MS_SSIM_SCALES, type FloatMsSsimOptions } from "../float-ms-ssim-definition.ts";
import { FloatMsSsimScorer } from "../numerics/float-ms-ssim-scores.ts";
import { SsimGpuPlan } from "./ssim-gpu-plan.ts";
import type { SsimMeans } from "../numerics/ssim-statistics.ts";

/**
 * GPU twin of FloatMsSsimCpu: the 5-scale wavelet pyramid and each scale's SSIM row sums
 * on the GPU; the per-scale means and Wang's product on the host, by the CPU's code.
 */
export class FloatMsSsimGpu implements GpuStage {
  readonly definition = floatMsSsimDefinition;
  readonly label = "float_ms_ssim";
  /** Luma only, like libvmaf's extractor: chroma is never uploaded for it. */
  readonly inputs = LUMA_INPUTS;
  readonly temporal = floatMsSsimDefinition.temporal;
  readonly resultWords = SsimGpuPlan.resultWords(MS_SSIM_SCALES);
  private plan?: SsimGpuPlan;
  private scorer?: FloatMsSsimScorer;
  private readonly means: SsimMeans[] = Array.from({ length: MS_SSIM_SCALES }, () => ({ ssim: 0, l: 0, c: 0, s: 0 }));

  constructor(readonly options: FloatMsSsimOptions) {}


  init(gpu: GpuContext, format: PictureFormat): void {
    floatMsSsimDefinition.checkFormat?.(this.options, format);
    this.scorer = new FloatMsSsimScorer(this.options, format);
    const plan = new SsimGpuPlan(gpu.device, format, "float_ms_ssim", MS_SSIM_SCALES);
    const levels = [plan.level(format.width, format.height)];
    plan.luma(levels[0]!);
    for (let i = 1; i < MS_SSIM_SCALES; i++) levels.push(plan.waveletDecimate(levels[i - 1]!));
    for (const level of levels) plan.statistics(level); // scale i is statistics index i
    plan.seal();
    this.plan = plan;
  }

  encode(_encoder: GPUCommandEncoder, passes: PassRecorder, frame: GpuFrame, results: GPUBuffer, resultOffset: number): void {
    this.plan!.encode(passes, frame, results, resultOffset);
  }

  collect(words: Uint32Array, index: number, collector: FeatureCollector): void {
    for (let i = 0; i < MS_SSIM_SCALES; i++) this.plan!.means(words, i, this.means[i]!);
    this.scorer!.write(this.means, index, collector);
  }

  close(): void {
    this.plan?.destroy();
  }
}

export function createFloatMsSsimGpu(options: Partial<FloatMsSsimOptions> = {}): FloatMsSsimGpu {
  return new FloatMsSsimGpu(floatMsSsimOptions.resolve(options));
}
