import type { FeatureCollector, FeatureExtractor, PictureFormat, PicturePair } from "@vq/core";
import { boxDecimate } from "../numerics/box-decimate.ts";
import { floatSsimDefinition, floatSsimOptions, ssimPictureSize, type FloatSsimOptions } from "../float-ssim-definition.ts";
import { FloatSsimScorer } from "../numerics/float-ssim-scores.ts";
import { lumaToFloat } from "../numerics/luma-float.ts";
import { SsimStatistics, type SsimMeans } from "../numerics/ssim-statistics.ts";

/** libvmaf's float_ssim on the CPU: luma to float, box-downscaled by the scale factor, one SSIM map. */
export class FloatSsimCpu implements FeatureExtractor<PicturePair> {
  readonly definition = floatSsimDefinition;
  private scorer?: FloatSsimScorer;
  private stats?: SsimStatistics;
  private scale = 1;
  private ref = new Float32Array(0);
  private cmp = new Float32Array(0);
  private smallRef = new Float32Array(0);
  private smallCmp = new Float32Array(0);
  private readonly means: SsimMeans = { ssim: 0, l: 0, c: 0, s: 0 };

  constructor(readonly options: FloatSsimOptions) {}

  init(format: PictureFormat): void {
    floatSsimDefinition.checkFormat?.(this.options, format);
    const size = ssimPictureSize(this.options, format);
    this.scale = size.scale;
    this.scorer = new FloatSsimScorer(this.options, format);
    this.stats = new SsimStatistics(size.width);
    this.ref = new Float32Array(format.width * format.height);
    this.cmp = new Float32Array(format.width * format.height);
    if (this.scale > 1) {
      this.smallRef = new Float32Array(size.width * size.height);
      this.smallCmp = new Float32Array(size.width * size.height);
    }
  }

  extract(frame: PicturePair, index: number, collector: FeatureCollector): void {
    if (!this.stats || !this.scorer) throw new Error("float_ssim: extract before init");
    const { width, height, bitDepth } = frame.ref;
    lumaToFloat(frame.ref.planes[0]!, bitDepth, this.ref);
    lumaToFloat(frame.dist.planes[0]!, bitDepth, this.cmp);
    let ref = this.ref;
    let cmp = this.cmp;
    let size = { width, height };
    if (this.scale > 1) {
      boxDecimate(ref, width, height, this.scale, this.smallRef);
      size = boxDecimate(cmp, width, height, this.scale, this.smallCmp);
      ref = this.smallRef;
      cmp = this.smallCmp;
    }
    this.stats.compute(ref, cmp, size.width, size.height, this.means);
    this.scorer.write(this.means, index, collector);
  }

  flush(_collector: FeatureCollector): void {}

  close(): void {}
}

export function createFloatSsimCpu(options: Partial<FloatSsimOptions> = {}): FloatSsimCpu {
  return new FloatSsimCpu(floatSsimOptions.resolve(options));
}
