import { poolFeature, poolFeatureExtended, type FeatureCollector, type PictureFormat, type PoolMode } from "@vq/core";
import { checkModelKeys, scoreModelsAtFrame, type LoadedModel } from "@vq/model";
import type { FrameScores, PooledStatistics, ScoreSummary } from "./score.ts";

/**
 * What one distorted input's scores become: frames handed out in order, each once every
 * feature of it is scored (with the models' scores added), and at the end the summary.
 */
export class RunOutput {
  private next = 0;

  constructor(
    private readonly models: readonly LoadedModel[],
    /** Every feature key the extractors write per frame. */
    private readonly expected: readonly string[],
    private readonly subsample: number,
    /** "extended": median, stdev and percentiles pooled too. */
    private readonly pool: PoolMode,
    /** Each frame as it is complete; none when only the summary is wanted (a merge). */
    private readonly emit?: (frame: FrameScores) => void,
  ) {}

  /** Hands out the frames below `upTo` that are complete (all of them when `final`: the run has ended). */
  handOut(c: FeatureCollector, upTo: number, final: boolean): void {
    if (this.next === 0) checkModelKeys(this.models, c);
    while (this.next < upTo) {
      const i = this.next;
      if (this.subsample > 1 && i % this.subsample) {
        this.next++;
        continue;
      }
      if (!final && !this.expected.every((k) => c.has(k, i))) break;
      scoreModelsAtFrame(this.models, c, i);
      this.emit?.({ frameNum: i, metrics: Object.fromEntries(c.frame(i)) });
      this.next++;
    }
  }

  /** The run's summary, pooled once here: all a caller needs. */
  summary(collector: FeatureCollector, frames: number, format: PictureFormat, backend: string): ScoreSummary {
    this.handOut(collector, frames, true);
    const pooled: Record<string, PooledStatistics> = {};
    const pool = this.pool === "extended" ? poolFeatureExtended : poolFeature;
    for (const name of collector.names()) {
      const p = pool(collector, name, frames, this.subsample);
      if (p) pooled[name] = p;
    }
    return {
      frames,
      pooled,
      aggregate: Object.fromEntries(collector.aggregateEntries()),
      collector,
      width: format.width,
      height: format.height,
      backend,
    };
  }
}
