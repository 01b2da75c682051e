import type { FeatureCollector, FeatureExtractor, PictureFormat, PicturePair } from "@vq/core";
import { chromaPlaneSize, speedChromaDefinition, speedChromaNames, type SpeedChromaNames, type SpeedChromaOptions } from "../definition.ts";
import type { FloatImage } from "../numerics/float-image.ts";
import { SpeedModel, type PairScore } from "../numerics/speed-model.ts";
import { speedGeometry } from "../numerics/speed-geometry.ts";
import { writeChromaScores } from "./speed-chroma-cpu.ts";
import { SpeedWasmPasses } from "./speed-wasm-passes.ts";

/**
 * libvmaf's speed_chroma on the WebAssembly SIMD kernels (ADR 0040): SpeedChromaCpu with
 * the kernels' passes, the same floats.
 */
export class SpeedChromaWasm implements FeatureExtractor<PicturePair> {
  readonly definition = speedChromaDefinition;
  private readonly names: SpeedChromaNames;
  private model?: SpeedModel;
  private passes?: SpeedWasmPasses;
  private readonly decimateSide = (side: 0 | 1, out: FloatImage) => this.passes!.decimateSamples(side, undefined, out);

  constructor(readonly options: SpeedChromaOptions, private readonly module: WebAssembly.Module) {
    this.names = speedChromaNames(options);
  }

  init(format: PictureFormat): void {
    speedChromaDefinition.checkFormat?.(this.options, format);
    const geometry = speedGeometry(chromaPlaneSize(format), this.options.speed_prescale, "feature speed_chroma");
    // float pictures only where the planes are resampled; otherwise decimation reads the samples
    this.passes = new SpeedWasmPasses(this.module, geometry, this.options, { pictures: geometry.resampled ? 2 : 0, samplePlanes: 2, bitDepth: format.bitDepth });
    this.model = new SpeedModel(geometry, this.options, this.passes);
  }

  extract(frame: PicturePair, index: number, collector: FeatureCollector): void {
    if (!this.model) throw new Error("speed_chroma: extract before init");
    const u = this.channel(frame, 1);
    const v = this.channel(frame, 2);
    writeChromaScores(this.names, this.options.speed_max_val, u, v, index, collector);
  }

  private channel(frame: PicturePair, plane: 1 | 2): PairScore {
    const passes = this.passes!;
    passes.loadSamples(frame.ref.planes[plane]!, 0);
    passes.loadSamples(frame.dist.planes[plane]!, 1);
    if (!passes.scaled) return this.model!.scoreDecimated(this.decimateSide);
    const [ref, dis] = passes.pictures as [FloatImage, FloatImage];
    passes.toFloat(0, ref);
    passes.toFloat(1, dis);
    return this.model!.score(ref, dis);
  }

  flush(_collector: FeatureCollector): void {}

  close(): void {
    this.model = undefined;
    this.passes = undefined;
  }
}
