import { vifFilter, type FeatureCollector, type Plane, type FeatureExtractor, type PictureFormat, type PicturePair } from "@vq/core";
import { floatVifDefinition, floatVifFeatureNames, floatVifOptions, type FloatVifFeatureNames, type FloatVifOptions } from "../float-vif-definition.ts";
import { FloatVifDecimator } from "./float-vif-decimate.ts";
import { FloatVifPrescaler, prescaledSize, type PrescaleMethod } from "../numerics/float-vif-prescale.ts";
import { writeFloatVifScores } from "../numerics/float-vif-scores.ts";
import { FloatVifScaleStatistic } from "./float-vif-statistic.ts";
import { convertLuma, FloatVifWorkspace, type FloatScalePlanes } from "./float-vif-workspace.ts";
import { mirrorRows } from "../numerics/mirror-pad.ts";

/** What a run's passes are built for: the input's and the scaled picture's sizes, the scales' taps and the widest radius. */
export interface FloatVifGeometry {
  readonly inputWidth: number;
  readonly inputHeight: number;
  readonly width: number;
  readonly height: number;
  readonly pad: number;
  readonly filters: readonly Float64Array[];
}

/**
 * float_vif's work per scale, on the TypeScript reference (FloatVifCpu) or the WebAssembly
 * SIMD kernels (FloatVifWasm): the same floats either way. Planes are the workspace's; rows
 * are mirrored as far as the scale's filter reaches.
 */
export interface FloatVifPasses {
  readonly workspace: FloatVifWorkspace;
  /** A frame's luma as floats (libvmaf's picture_copy, offset -128) at `origin` in `target`, rows `stride` apart. */
  convert(plane: Plane, bitDepth: number, target: Float32Array, origin: number, stride: number): void;
  /** The next scale (`scale`, its filter) of `from` (width x height) into `to`, its rows mirrored. */
  decimate(from: FloatScalePlanes, to: FloatScalePlanes, width: number, height: number, scale: number): void;
  /** One scale's numerator and denominator (floats) to out[2 * scale] and out[2 * scale + 1]. */
  statistic(planes: FloatScalePlanes, width: number, height: number, scale: number, out: Float64Array): void;
}

interface FloatVifState {
  bitDepth: number;
  pad: number;
  passes: FloatVifPasses;
  prescaler: FloatVifPrescaler;
}

/** libvmaf's `float_vif` extractor on the CPU over a set of passes; allocates in init only. */
export class FloatVifExtractor implements FeatureExtractor<PicturePair> {
  readonly definition = floatVifDefinition;
  readonly names: FloatVifFeatureNames;
  private state?: FloatVifState;
  /** num, den per scale: floats widened to double, as compute_vif hands them on. */
  private readonly scores = new Float64Array(8);

  constructor(
    readonly options: FloatVifOptions,
    private readonly passes: (geometry: FloatVifGeometry, options: FloatVifOptions) => FloatVifPasses,
  ) {
    this.names = floatVifFeatureNames(options);
  }

  init(format: PictureFormat): void {
    floatVifDefinition.checkFormat?.(this.options, format);
    const size = prescaledSize(format, this.options.vif_prescale);
    const filters = [0, 1, 2, 3].map((s) => Float64Array.from(vifFilter(s, this.options.vif_kernelscale)));
    // scale 0's filter is the longest: its radius pads every buffer
    const pad = filters[0]!.length >> 1;
    const geometry = { inputWidth: format.width, inputHeight: format.height, width: size.width, height: size.height, pad, filters };
    this.state = {
      bitDepth: format.bitDepth,
      pad,
      passes: this.passes(geometry, this.options),
      prescaler: new FloatVifPrescaler(this.options.vif_prescale_method as PrescaleMethod, format.width, size.width),
    };
  }

  extract(frame: PicturePair, index: number, collector: FeatureCollector): void {
    const state = this.state;
    if (!state) throw new Error("float_vif: extract before init");
    const { passes, pad } = state;
    const workspace = passes.workspace;
    const input = workspace.inputPlanes();
    passes.convert(frame.ref.planes[0]!, state.bitDepth, input.planes.ref, input.origin, input.stride);
    passes.convert(frame.dist.planes[0]!, state.bitDepth, input.planes.dis, input.origin, input.stride);
    if (workspace.input) {
      state.prescaler.run(workspace.inputPlane("ref"), workspace.scaledPlane("ref"));
      state.prescaler.run(workspace.inputPlane("dis"), workspace.scaledPlane("dis"));
    }
    const { origin, stride } = workspace;
    let planes = workspace.pairs[0];
    let width = workspace.width;
    let height = workspace.height;
    mirrorRows(planes.ref, origin, stride, width, height, pad);
    mirrorRows(planes.dis, origin, stride, width, height, pad);
    for (let scale = 0; scale < 4; scale++) {
      if (scale > 0) {
        const next = scale & 1 ? workspace.pairs[1] : workspace.pairs[0];
        passes.decimate(planes, next, width, height, scale);
        planes = next;
        width >>= 1;
        height >>= 1;
      }
      if (scale === 0 && this.options.vif_skip_scale0) continue;
      passes.statistic(planes, width, height, scale, this.scores);
    }
    writeFloatVifScores(collector, index, this.names, this.options, this.scores);
  }

  flush(_collector: FeatureCollector): void {}

  close(): void {
    this.state = undefined;
  }
}

/** The TypeScript reference's passes: float arithmetic emulated step by step. */
function referencePasses(geometry: FloatVifGeometry, options: FloatVifOptions): FloatVifPasses {
  const { inputWidth, inputHeight, width, height, pad, filters } = geometry;
  const workspace = new FloatVifWorkspace(inputWidth, inputHeight, width, height, pad);
  const statistic = new FloatVifScaleStatistic(width, pad, options.vif_enhn_gain_limit, options.vif_sigma_nsq);
  const decimator = new FloatVifDecimator(width, pad);
  const { origin, stride } = workspace;
  return {
    workspace,
    convert: convertLuma,
    decimate: (from, to, w, h, scale) => decimator.run(from, to, origin, stride, w, h, filters[scale]!),
    statistic: (planes, w, h, scale, out) => statistic.compute(planes.ref, planes.dis, origin, stride, w, h, filters[scale]!, scale, out),
  };
}

/** libvmaf's `float_vif` extractor on the CPU, float arithmetic emulated step by step (the specification the kernels are held to). */
export class FloatVifCpu extends FloatVifExtractor {
  constructor(options: FloatVifOptions) {
    super(options, referencePasses);
  }
}

export function createFloatVifCpu(options: Partial<FloatVifOptions> = {}): FloatVifCpu {
  return new FloatVifCpu(floatVifOptions.resolve(options));
}
