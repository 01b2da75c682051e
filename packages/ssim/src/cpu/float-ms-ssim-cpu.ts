import type { FeatureCollector, FeatureExtractor, PictureFormat, PicturePair } from "@vq/core";
import { floatMsSsimDefinition, floatMsSsimOptions, MS_SSIM_SCALES, type FloatMsSsimOptions } from "../float-ms-ssim-definition.ts";
import { FloatMsSsimScorer } from "../numerics/float-ms-ssim-scores.ts";
import { lumaToFloat } from "../numerics/luma-float.ts";
import { decimatedSize } from "../numerics/decimation-geometry.ts";
import { SsimStatistics, type SsimMeans } from "../numerics/ssim-statistics.ts";
import { waveletDecimate } from "../numerics/wavelet-decimate.ts";

/** One scale of the pyramid: reference and distorted luma as floats, stride = width. */
interface Level {
  width: number;
  height: number;
  ref: Float32Array;
  cmp: Float32Array;
}

/**
 * libvmaf's float_ms_ssim on the CPU: a 5-scale pyramid (9/7 wavelet low-pass, halving
 * with odd sizes rounded up) and the SSIM means of every scale, combined by Wang's
 * exponents.
 */
export class FloatMsSsimCpu implements FeatureExtractor<PicturePair> {
  readonly definition = floatMsSsimDefinition;
  private scorer?: FloatMsSsimScorer;
  private stats?: SsimStatistics;
  private levels: Level[] = [];
  private readonly means: SsimMeans[] = Array.from({ length: MS_SSIM_SCALES }, () => ({ ssim: 0, l: 0, c: 0, s: 0 }));

  constructor(readonly options: FloatMsSsimOptions) {}

  init(format: PictureFormat): void {
    floatMsSsimDefinition.checkFormat?.(this.options, format);
    this.scorer = new FloatMsSsimScorer(this.options, format);
    this.stats = new SsimStatistics(format.width);
    this.levels = [];
    let width = format.width;
    let height = format.height;
    for (let i = 0; i < MS_SSIM_SCALES; i++) {
      this.levels.push({ width, height, ref: new Float32Array(width * height), cmp: new Float32Array(width * height) });
      width = decimatedSize(width, 2);
      height = decimatedSize(height, 2);
    }
  }

  extract(frame: PicturePair, index: number, collector: FeatureCollector): void {
    if (!this.stats || !this.scorer) throw new Error("float_ms_ssim: extract before init");
    const top = this.levels[0]!;
    lumaToFloat(frame.ref.planes[0]!, frame.ref.bitDepth, top.ref);
    lumaToFloat(frame.dist.planes[0]!, frame.dist.bitDepth, top.cmp);
    for (let i = 1; i < MS_SSIM_SCALES; i++) {
      const from = this.levels[i - 1]!;
      const to = this.levels[i]!;
      waveletDecimate(from.ref, from.cmp, from.width, from.height, to.ref, to.cmp);
    }
    for (let i = 0; i < MS_SSIM_SCALES; i++) {
      const level = this.levels[i]!;
      this.stats.compute(level.ref, level.cmp, level.width, level.height, this.means[i]!);
    }
    this.scorer.write(this.means, index, collector);
  }

  flush(_collector: FeatureCollector): void {}

  close(): void {}
}

export function createFloatMsSsimCpu(options: Partial<FloatMsSsimOptions> = {}): FloatMsSsimCpu {
  return new FloatMsSsimCpu(floatMsSsimOptions.resolve(options));
}
