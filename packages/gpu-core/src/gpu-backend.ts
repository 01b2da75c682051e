import type { ExtractionBackend, FeatureCollector, FrameRead, LadderBackend, Picture, PictureFormat, PicturePair } from "@vq/core";
import type { GpuContext } from "./device.ts";
import { GpuFrameRunner, type FrameRunnerOptions, type GpuStageLanes } from "./frame-runner.ts";
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

/**
 * A ladder's GPU backend: each lane's extractors behind one frame runner, so the reference
 * is uploaded once per frame for every distorted input.
 */
export class GpuLadderBackend implements LadderBackend {
  readonly name = "gpu";
  readonly runner: GpuFrameRunner;

  constructor(readonly gpu: GpuContext, lanes: GpuStageLanes, options: FrameRunnerOptions = {}) {
    this.runner = new GpuFrameRunner(gpu, lanes, options);
  }

  init(format: PictureFormat, frames?: number): Promise<void> {
    return this.runner.init(format, frames);
  }

  extract(ref: Picture, dists: readonly (Picture | undefined)[], index: number, collectors: readonly FeatureCollector[]): Promise<void> {
    return this.runner.submitFrame(ref, dists, index, collectors);
  }

  endLane(lane: number, frames: number): void {
    this.runner.endLane(lane, frames);
  }

  flush(collectors: readonly FeatureCollector[]): Promise<void> {
    return this.runner.flushLanes(collectors);
  }

  close(): Promise<void> {
    return this.runner.close();
  }
}
