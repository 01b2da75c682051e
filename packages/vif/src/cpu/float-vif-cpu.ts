import { vifFilter, type FeatureCollector, type FeatureExtractor, type PictureFormat, type PicturePair } from "@vq/core";
import { floatVifDefinition, floatVifFeatureNames, floatVifOptions, type FloatVifFeatureNames, type FloatVifOptions } from "../float-vif-definition.ts";
import { FloatVifDecimator } from "./float-vif-decimate.ts";
import { FloatVifPrescaler, prescaledSize, type PrescaleMethod } from "../numerics/float-vif-prescale.ts";
import { writeFloatVifScores } from "../numerics/float-vif-scores.ts";
import { FloatVifScaleStatistic } from "./float-vif-statistic.ts";
import { convertLuma, FloatVifWorkspace } from "./float-vif-workspace.ts";
import { mirrorRows } from "../numerics/mirror-pad.ts";

interface FloatVifState {
  bitDepth: number;
  filters: Float64Array[];
  workspace: FloatVifWorkspace;
  prescaler: FloatVifPrescaler;
  statistic: FloatVifScaleStatistic;
  decimator: FloatVifDecimator;
}

/** libvmaf's `float_vif` extractor on the CPU, float arithmetic emulated step by step; allocates in init only. */
export class FloatVifCpu implements FeatureExtractor<PicturePair> {
  readonly definition = floatVifDefinition;
  readonly names: FloatVifFeatureNames;
  private state?: FloatVifState;
  /** num, den per scale: floats widened to double, as compute_vif hands them on. */
  private readonly scores = new Float64Array(8);

  constructor(readonly options: FloatVifOptions) {
    this.names = floatVifFeatureNames(options);
  }

  init(format: PictureFormat): void {
    floatVifDefinition.checkFormat?.(this.options, format);
    const size = prescaledSize(format, this.options.vif_prescale);
    const filters = [0, 1, 2, 3].map((s) => Float64Array.from(vifFilter(s, this.options.vif_kernelscale)));
    // scale 0's filter is the longest: its radius pads every buffer
    const pad = filters[0]!.length >> 1;
    this.state = {
      bitDepth: format.bitDepth,
      filters,
      workspace: new FloatVifWorkspace(format.width, format.height, size.width, size.height, pad),
      prescaler: new FloatVifPrescaler(this.options.vif_prescale_method as PrescaleMethod, format.width, size.width),
      statistic: new FloatVifScaleStatistic(size.width, pad, this.options.vif_enhn_gain_limit, this.options.vif_sigma_nsq),
      decimator: new FloatVifDecimator(size.width, pad),
    };
  }

  extract(frame: PicturePair, index: number, collector: FeatureCollector): void {
    const state = this.state;
    if (!state) throw new Error("float_vif: extract before init");
    const { workspace, filters, statistic, decimator } = state;
    const input = workspace.inputPlanes();
    convertLuma(frame.ref.planes[0]!, state.bitDepth, input.planes.ref, input.origin, input.stride);
    convertLuma(frame.dist.planes[0]!, state.bitDepth, input.planes.dis, input.origin, input.stride);
    if (workspace.input) {
      state.prescaler.run(workspace.inputPlane("ref"), workspace.scaledPlane("ref"));
      state.prescaler.run(workspace.inputPlane("dis"), workspace.scaledPlane("dis"));
    }
    const { origin, stride } = workspace;
    let planes = workspace.pairs[0];
    let width = workspace.width;
    let height = workspace.height;
    mirrorRows(planes.ref, origin, stride, width, height, filters[0]!.length >> 1);
    mirrorRows(planes.dis, origin, stride, width, height, filters[0]!.length >> 1);
    for (let scale = 0; scale < 4; scale++) {
      const filter = filters[scale]!;
      if (scale > 0) {
        const next = scale & 1 ? workspace.pairs[1] : workspace.pairs[0];
        decimator.run(planes, next, origin, stride, width, height, filter);
        planes = next;
        width >>= 1;
        height >>= 1;
      }
      if (scale === 0 && this.options.vif_skip_scale0) continue;
      statistic.compute(planes.ref, planes.dis, origin, stride, width, height, filter, scale, this.scores);
    }
    writeFloatVifScores(collector, index, this.names, this.options, this.scores);
  }

  flush(_collector: FeatureCollector): void {}

  close(): void {
    this.state = undefined;
  }
}

export function createFloatVifCpu(options: Partial<FloatVifOptions> = {}): FloatVifCpu {
  return new FloatVifCpu(floatVifOptions.resolve(options));
}
