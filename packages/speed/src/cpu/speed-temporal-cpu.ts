import type { FeatureCollector, FeatureExtractor, PictureFormat, PicturePair, Samples } from "@vq/core";
import { speedTemporalDefinition, speedTemporalName, speedTemporalOptions, type SpeedTemporalOptions } from "../definition.ts";
import { allocateImage, copySamples, sampleDifference, type FloatImage } from "../numerics/float-image.ts";
import { SpeedModel } from "../numerics/speed-model.ts";
import { speedGeometry } from "../numerics/speed-geometry.ts";

/** A frame's luma samples, reference and distorted, kept for the next frame. */
interface LumaPair {
  ref: Samples;
  dis: Samples;
}

/**
 * libvmaf's speed_temporal on the CPU: SpEED on the frame differences (previous minus
 * current) of reference and distorted luma; frame 0 scores 0. libvmaf does not clip this
 * score to speed_max_val.
 */
export class SpeedTemporalCpu implements FeatureExtractor<PicturePair> {
  readonly definition = speedTemporalDefinition;
  private readonly name: string;
  private model?: SpeedModel;
  private previous?: LumaPair;
  private refDiff?: FloatImage;
  private disDiff?: FloatImage;
  private format?: PictureFormat;

  constructor(readonly options: SpeedTemporalOptions) {
    this.name = speedTemporalName(options);
  }

  init(format: PictureFormat): void {
    speedTemporalDefinition.checkFormat?.(this.options, format);
    const geometry = speedGeometry(format, this.options.speed_prescale, "feature speed_temporal");
    this.model = new SpeedModel(geometry, { ...this.options, speed_weight_var_mode: 0 });
    const samples = () => (format.bitDepth > 8 ? new Uint16Array(format.width * format.height) : new Uint8Array(format.width * format.height));
    this.previous = { ref: samples(), dis: samples() };
    this.refDiff = allocateImage(format);
    this.disDiff = allocateImage(format);
    this.format = format;
  }

  extract(frame: PicturePair, index: number, collector: FeatureCollector): void {
    if (!this.model || !this.previous || !this.format) throw new Error("speed_temporal: extract before init");
    const { bitDepth } = this.format;
    const prev = this.previous;
    const ref = frame.ref.planes[0]!;
    const dis = frame.dist.planes[0]!;
    if (index === 0) {
      collector.append(this.name, index, 0);
    } else {
      sampleDifference(prev.ref, ref, bitDepth, this.refDiff!);
      sampleDifference(prev.dis, this.options.speed_use_ref_diff ? ref : dis, bitDepth, this.disDiff!);
      collector.append(this.name, index, this.model.score(this.refDiff!, this.disDiff!).score);
    }
    copySamples(ref, this.format, prev.ref);
    copySamples(dis, this.format, prev.dis);
  }

  flush(_collector: FeatureCollector): void {}

  close(): void {}
}

export function createSpeedTemporalCpu(options: Partial<SpeedTemporalOptions> = {}): SpeedTemporalCpu {
  return new SpeedTemporalCpu(speedTemporalOptions.resolve(options));
}
