import type { FeatureCollector, FeatureExtractor, Plane, PictureFormat, PicturePair } from "@vq/core";
import { FLOAT_MOMENT_NAMES, floatMomentDefinition, floatMomentOptions, type FloatMomentOptions } from "./float-definitions.ts";
import { lumaScale } from "./float-picture.ts";

/**
 * compute_1st_moment and compute_2nd_moment of one luma plane scaled to the 8-bit range:
 * samples (exact floats) summed in double, squares rounded to float before they join
 * the double sum; both divided by the sample count.
 */
export function lumaMoments(plane: Plane, scale: number): { first: number; second: number } {
  const { width, height, stride, data } = plane;
  let first = 0;
  let second = 0;
  for (let y = 0; y < height; y++) {
    for (let i = y * stride, end = i + width; i < end; i++) {
      const v = data[i]! * scale;
      first += v;
      second += Math.fround(v * v);
    }
  }
  return { first: first / (width * height), second: second / (width * height) };
}

/** libvmaf's `float_moment` on the CPU: mean and mean square of both luma planes. */
export class FloatMomentCpu implements FeatureExtractor<PicturePair> {
  readonly definition = floatMomentDefinition;
  private scale = 1;

  constructor(readonly options: FloatMomentOptions = floatMomentOptions.defaults) {}

  init(format: PictureFormat): void {
    floatMomentDefinition.checkFormat?.(this.options, format);
    this.scale = lumaScale(format.bitDepth);
  }

  extract(frame: PicturePair, index: number, collector: FeatureCollector): void {
    const ref = lumaMoments(frame.ref.planes[0]!, this.scale);
    const dis = lumaMoments(frame.dist.planes[0]!, this.scale);
    const [ref1st, dis1st, ref2nd, dis2nd] = FLOAT_MOMENT_NAMES;
    collector.append(ref1st, index, ref.first);
    collector.append(dis1st, index, dis.first);
    collector.append(ref2nd, index, ref.second);
    collector.append(dis2nd, index, dis.second);
  }

  flush(): void {}

  close(): void {}
}

export function createFloatMomentCpu(): FloatMomentCpu {
  return new FloatMomentCpu(floatMomentOptions.resolve({}));
}
