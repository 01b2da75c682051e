import type { FeatureCollector, FeatureExtractor, PictureFormat, PicturePair } from "@vq/core";
import { speedTemporalDefinition, speedTemporalName, type SpeedTemporalOptions } from "../definition.ts";
import type { FloatImage } from "../numerics/float-image.ts";
import { SpeedModel } from "../numerics/speed-model.ts";
import { speedGeometry } from "../numerics/speed-geometry.ts";
import { SpeedWasmPasses } from "./speed-wasm-passes.ts";

/**
 * libvmaf's speed_temporal on the WebAssembly SIMD kernels (ADR 0040): SpeedTemporalCpu
 * with the kernels' passes, the same floats. The previous frame's samples stay in the
 * kernels' memory: four sample planes, the previous and current pair swapping roles.
 */
export class SpeedTemporalWasm implements FeatureExtractor<PicturePair> {
  readonly definition = speedTemporalDefinition;
  private readonly name: string;
  private model?: SpeedModel;
  private passes?: SpeedWasmPasses;
  /** Sample planes of the previous frame's reference and distorted luma (the current pair is the other two). */
  private previous = 0;

  constructor(readonly options: SpeedTemporalOptions, private readonly module: WebAssembly.Module) {
    this.name = speedTemporalName(options);
  }

  init(format: PictureFormat): void {
    speedTemporalDefinition.checkFormat?.(this.options, format);
    const geometry = speedGeometry(format, this.options.speed_prescale, "feature speed_temporal");
    this.passes = new SpeedWasmPasses(this.module, geometry, this.options, { pictures: geometry.resampled ? 2 : 0, samplePlanes: 4, bitDepth: format.bitDepth });
    this.model = new SpeedModel(geometry, { ...this.options, speed_weight_var_mode: 0 }, this.passes);
    this.previous = 0;
  }

  extract(frame: PicturePair, index: number, collector: FeatureCollector): void {
    const { model, passes } = this;
    if (!model || !passes) throw new Error("speed_temporal: extract before init");
    const prev = this.previous;
    const cur = 2 - prev;
    passes.loadSamples(frame.ref.planes[0]!, cur);
    passes.loadSamples(frame.dist.planes[0]!, cur + 1);
    if (index === 0) {
      collector.append(this.name, index, 0);
    } else {
      const disNow = this.options.speed_use_ref_diff ? cur : cur + 1;
      if (!passes.scaled) {
        // decimation reads the differences straight from the samples
        const score = model.scoreDecimated((side, out) => passes.decimateSamples(prev + side, side === 0 ? cur : disNow, out));
        collector.append(this.name, index, score.score);
      } else {
        const [refDiff, disDiff] = passes.pictures as [FloatImage, FloatImage];
        passes.difference(prev, cur, refDiff);
        passes.difference(prev + 1, disNow, disDiff);
        collector.append(this.name, index, model.score(refDiff, disDiff).score);
      }
    }
    this.previous = cur;
  }

  flush(_collector: FeatureCollector): void {}

  close(): void {
    this.model = undefined;
    this.passes = undefined;
  }
}
