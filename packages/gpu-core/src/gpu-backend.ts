import type { ExtractionBackend, FeatureCollector, FrameRead, PictureFormat, PicturePair } from "@vq/core";
import type { GpuContext } from "./device.ts";
import { GpuFrameRunner, type FrameRunnerOptions } from "./frame-runner.ts";
import type { GpuStage } from "./gpu-stage.ts";

/** The scoring pipeline's GPU backend: every GPU extractor of a run behind one frame runner. */
export class GpuBackend implements ExtractionBackend {
  readonly name = "gpu";
  readonly runner: GpuFrameRunner;

  constructor(readonly gpu: GpuContext, stages: readonly GpuStage[], options: FrameRunnerOptions = {}) {
    this.runner = new GpuFrameRunner(gpu, stages, options);
  }

  init(format: PictureFormat, frames?: number): Promise<void> {
    return this.runner.init(format, frames);
  }

  extract(pair: PicturePair, index: number, collector: FeatureCollector): Promise<void> {
    return this.runner.submit(pair, index, collector);
  }

  extractFromFiles(ref: FrameRead, dist: FrameRead, index: number, collector: FeatureCollector): Promise<void> {
    return this.runner.submitFromFiles(ref, dist, index, collector);
  }

  flush(collector: FeatureCollector): Promise<void> {
    return this.runner.flush(collector);
  }

  close(): Promise<void> {
    return this.runner.close();
  }
}
