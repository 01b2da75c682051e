import type { FeatureCollector, FeatureExtractor, PictureFormat, PicturePair } from "@vq/core";
import { FLOAT_PSNR_NAME, floatPeak, floatPsnrDefinition, floatPsnrOptions, type FloatPsnrOptions } from "./float-definitions.ts";
import { lumaScale } from "./float-picture.ts";

/** libvmaf's eps in compute_psnr and compute_ansnr: bounds the PSNR of identical pictures (then capped at psnrMax). */
export const FLOAT_PSNR_EPS = 1e-10;

/**
 * libvmaf's `float_psnr` on the CPU: luma only, on samples scaled to the 8-bit range.
 * Each difference is a float and its square is rounded to float before it joins the
 * double sum, as in compute_psnr. (The float difference of two scaled samples is exact,
 * so it is taken straight from the integer samples.)
 */
export class FloatPsnrCpu implements FeatureExtractor<PicturePair> {
  readonly definition = floatPsnrDefinition;
  private peak = 255;
  private psnrMax = 60;
  private scale = 1;

  constructor(readonly options: FloatPsnrOptions = floatPsnrOptions.defaults) {}

  init(format: PictureFormat): void {
    floatPsnrDefinition.checkFormat?.(this.options, format);
    ({ peak: this.peak, psnrMax: this.psnrMax } = floatPeak(format.bitDepth));
    this.scale = lumaScale(format.bitDepth);
  }

  extract(frame: PicturePair, index: number, collector: FeatureCollector): void {
    const ref = frame.ref.planes[0]!;
    const dist = frame.dist.planes[0]!;
    const { width, height } = ref;
    const scale = this.scale;
    let noise = 0;
    for (let y = 0; y < height; y++) {
      let i = y * ref.stride;
      let j = y * dist.stride;
      for (const end = i + width; i < end; i++, j++) {
        const diff = (ref.data[i]! - dist.data[j]!) * scale;
        noise += Math.fround(diff * diff);
      }
    }
    noise /= width * height;
    collector.append(FLOAT_PSNR_NAME, index, Math.min(10 * Math.log10((this.peak * this.peak) / Math.max(noise, FLOAT_PSNR_EPS)), this.psnrMax));
  }

  flush(): void {}

  close(): void {}
}

export function createFloatPsnrCpu(): FloatPsnrCpu {
  return new FloatPsnrCpu(floatPsnrOptions.resolve({}));
}
