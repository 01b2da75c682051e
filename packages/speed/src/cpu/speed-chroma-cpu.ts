import type { FeatureCollector, FeatureExtractor, PictureFormat, PicturePair } from "@vq/core";
import { chromaPlaneSize, speedChromaDefinition, speedChromaNames, speedChromaOptions, type SpeedChromaNames, type SpeedChromaOptions } from "../definition.ts";
import { allocateImage, planeToFloat, type FloatImage } from "../numerics/float-image.ts";
import { SpeedModel, type PairScore } from "../numerics/speed-model.ts";
import { speedGeometry } from "../numerics/speed-geometry.ts";

const f32 = Math.fround;

/**
 * extract_chroma's combination of the U and V scores: where exactly one channel's
 * covariance was singular (a flat channel), uv is the other channel's score.
 */
export function combineChroma(u: PairScore, v: PairScore): number {
  if (u.singular && !v.singular) return v.score;
  if (v.singular && !u.singular) return u.score;
  return f32((u.score + v.score) / 2);
}

/** Writes the three chroma scores, clipped to speed_max_val as libvmaf clips them. */
export function writeChromaScores(names: SpeedChromaNames, maxVal: number, u: PairScore, v: PairScore, index: number, collector: FeatureCollector): void {
  collector.append(names.u, index, Math.min(u.score, maxVal));
  collector.append(names.v, index, Math.min(v.score, maxVal));
  collector.append(names.uv, index, Math.min(combineChroma(u, v), maxVal));
}

/** libvmaf's speed_chroma on the CPU: SpEED on the U and on the V planes. */
export class SpeedChromaCpu implements FeatureExtractor<PicturePair> {
  readonly definition = speedChromaDefinition;
  private readonly names: SpeedChromaNames;
  private model?: SpeedModel;
  private ref?: FloatImage;
  private dis?: FloatImage;
  private bitDepth = 8;

  constructor(readonly options: SpeedChromaOptions) {
    this.names = speedChromaNames(options);
  }

  init(format: PictureFormat): void {
    speedChromaDefinition.checkFormat?.(this.options, format);
    const plane = chromaPlaneSize(format);
    this.model = new SpeedModel(speedGeometry(plane, this.options.speed_prescale, "feature speed_chroma"), this.options);
    this.ref = allocateImage(plane);
    this.dis = allocateImage(plane);
    this.bitDepth = format.bitDepth;
  }

  extract(frame: PicturePair, index: number, collector: FeatureCollector): void {
    if (!this.model) throw new Error("speed_chroma: extract before init");
    const u = this.channel(frame, 1);
    const v = this.channel(frame, 2);
    writeChromaScores(this.names, this.options.speed_max_val, u, v, index, collector);
  }

  private channel(frame: PicturePair, plane: 1 | 2): PairScore {
    planeToFloat(frame.ref.planes[plane]!, this.bitDepth, this.ref!);
    planeToFloat(frame.dist.planes[plane]!, this.bitDepth, this.dis!);
    return this.model!.score(this.ref!, this.dis!);
  }

  flush(_collector: FeatureCollector): void {}

  close(): void {}
}

export function createSpeedChromaCpu(options: Partial<SpeedChromaOptions> = {}): SpeedChromaCpu {
  return new SpeedChromaCpu(speedChromaOptions.resolve(options));
}
