import type { FeatureCollector, FeatureExtractor, PictureFormat, PicturePair } from "@vq/core";
import { vifDefinition, vifFeatureNames, vifOptions, type VifFeatureNames, type VifOptions } from "../definition.ts";
import { createLog2Table } from "../numerics/log2-table.ts";
import { VifDecimator } from "./vif-decimate.ts";
import { VIF_SCALES } from "../numerics/vif-filters.ts";
import { writeVifScores } from "../numerics/vif-scores.ts";
import { VifScaleStatistic } from "./vif-statistic.ts";
import { VifWorkspace } from "./vif-workspace.ts";

interface VifState {
  workspace: VifWorkspace;
  statistic: VifScaleStatistic;
  decimator: VifDecimator;
}

/** libvmaf's integer `vif` extractor on the CPU: everything is allocated in init, nothing per frame. */
export class VifCpu implements FeatureExtractor<PicturePair> {
  readonly definition = vifDefinition;
  readonly names: VifFeatureNames;
  private state?: VifState;
  /** num, den per scale, as the floats libvmaf keeps. */
  private readonly numDen = new Float32Array(2 * VIF_SCALES);

  constructor(readonly options: VifOptions) {
    this.names = vifFeatureNames(options);
  }

  init(format: PictureFormat): void {
    vifDefinition.checkFormat?.(this.options, format);
    const log2Table = createLog2Table();
    this.state = {
      workspace: new VifWorkspace(format.width, format.height),
      statistic: new VifScaleStatistic(format.width, format.bitDepth, this.options.vif_enhn_gain_limit, log2Table),
      decimator: new VifDecimator(format.width, format.bitDepth),
    };
  }

  extract(frame: PicturePair, index: number, collector: FeatureCollector): void {
    const state = this.state;
    if (!state) throw new Error("vif: extract before init");
    const { workspace, statistic, decimator } = state;
    const scales = workspace.scales;
    workspace.load(frame.ref.planes[0]!, frame.dist.planes[0]!);
    for (let scale = 0; scale < VIF_SCALES; scale++) {
      if (scale > 0) decimator.run(scales[scale - 1]!, scales[scale]!, scale - 1);
      if (scale === 0 && this.options.vif_skip_scale0) continue;
      statistic.compute(scales[scale]!, scale, this.numDen);
    }
    writeVifScores(collector, index, this.names, this.options, this.numDen);
  }

  flush(_collector: FeatureCollector): void {}

  close(): void {
    this.state = undefined;
  }
}

export function createVifCpu(options: Partial<VifOptions> = {}): VifCpu {
  return new VifCpu(vifOptions.resolve(options));
}
