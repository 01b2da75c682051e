import type { FeatureCollector, FeatureExtractor, PictureFormat, PicturePair } from "@vq/core";
import { PLANE_CSF, PLANE_MASKS as MASKS } from "./csf.ts";
import { libvmafPlaneSizes, psnrHvsDefinition, psnrHvsOptions, type PsnrHvsOptions } from "./definition.ts";
import { BlockScratch, planeError } from "./plane-error.ts";
import { largestSample, writePsnrHvs } from "./psnr-hvs-score.ts";

/** libvmaf's psnr_hvs on the CPU: each plane's block errors in float, exactly in libvmaf's order. */
export class PsnrHvsCpu implements FeatureExtractor<PicturePair> {
  readonly definition = psnrHvsDefinition;
  private sizes?: { width: number; height: number }[];
  private readonly scratch = new BlockScratch();

  constructor(readonly options: PsnrHvsOptions) {}

  init(format: PictureFormat): void {
    psnrHvsDefinition.checkFormat?.(this.options, format);
    this.sizes = libvmafPlaneSizes(format);
  }

  extract(frame: PicturePair, index: number, collector: FeatureCollector): void {
    if (!this.sizes) throw new Error("psnr_hvs: extract before init");
    const errors = [0, 0, 0] as [number, number, number];
    for (let p = 0; p < 3; p++) {
      const { width, height } = this.sizes[p]!;
      errors[p] = planeError(frame.ref.planes[p]!, frame.dist.planes[p]!, width, height, frame.ref.bitDepth, PLANE_CSF[p]!, MASKS[p]!, this.scratch);
    }
    writePsnrHvs(errors, index, collector, frame.ref.bitDepth, (p) => largestSample(frame, p));
  }

  flush(_collector: FeatureCollector): void {}

  close(): void {}
}

export function createPsnrHvsCpu(options: Partial<PsnrHvsOptions> = {}): PsnrHvsCpu {
  return new PsnrHvsCpu(psnrHvsOptions.resolve(options));
}
