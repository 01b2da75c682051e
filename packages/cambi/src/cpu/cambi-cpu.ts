import type { FeatureCollector, FeatureExtractor, PictureFormat, PicturePair, Plane } from "@vq/core";
import { NUM_SCALES, planCambi, type CambiGeometry, type CambiPlan } from "../numerics/cambi-plan.ts";
import { appendCambiScores, combineScales } from "../numerics/cambi-scores.ts";
import { CValues } from "./c-values.ts";
import { cambiDefinition, cambiOptions, cambiScoreName, type CambiOptions } from "../definition.ts";
import { Heatmaps } from "./heatmaps.ts";
import { decimate, ModeFilter } from "./mode-filter.ts";
import { antiDither, antiDitheredFrom8Bit, checkLumaRange, toTenBit } from "../numerics/preprocess.ts";
import { MaskSpans } from "./mask-spans.ts";
import { SpatialMask } from "./spatial-mask.ts";
import { spatialPooling, type CValueList } from "../numerics/topk-pooling.ts";

/** What computes a scale's c-values (c-values.ts's CValues, or the WebAssembly kernels): pooling reads the list it leaves. */
export interface CValueEngine extends CValueList {
  compute(image: Uint16Array, mask: MaskSpans, width: number, height: number, windowSize: number): void;
}

/**
 * Where one cambi instance's pictures live and what computes its c-values: the TypeScript
 * reference's own arrays by default; the WebAssembly path puts the pictures in its
 * kernels' memory so that they read the filtered picture without a copy.
 */
export interface CambiWorkspace {
  /** The picture of the current scale and the next one (ping-pong), and filtered samples under the mask: `allocWidth`·`allocHeight` samples each. */
  readonly image: Uint16Array;
  readonly other: Uint16Array;
  readonly filtered: Uint16Array;
  readonly mask: MaskSpans;
  readonly spatialMask: SpatialMaskEngine;
  readonly modeFilter: ModeFilterEngine;
  readonly cValues: CValueEngine;
  /** preprocess.ts's antiDitheredFrom8Bit: 8-bit luma at its own size to anti-dithered 10 bits in `out`. */
  readonly antiDitheredFrom8Bit: (luma: Plane, out: Uint16Array) => void;
}

/** What mode-filters a scale (mode-filter.ts's ModeFilter, or the WebAssembly kernels): its `run`. */
export type ModeFilterEngine = Pick<ModeFilter, "run">;

/** What finds the spatial mask (spatial-mask.ts's SpatialMask, or the WebAssembly kernels). */
export interface SpatialMaskEngine {
  compute(image: Uint16Array, width: number, height: number, spans: MaskSpans): void;
}

/** The TypeScript reference's workspace. */
export function typeScriptWorkspace(plan: CambiPlan): CambiWorkspace {
  const n = plan.allocWidth * plan.allocHeight;
  return {
    image: new Uint16Array(n),
    other: new Uint16Array(n),
    filtered: new Uint16Array(n),
    mask: new MaskSpans(plan.allocHeight, Math.max(1024, n >> 6)),
    spatialMask: new SpatialMask(plan.allocWidth),
    modeFilter: new ModeFilter(plan.allocWidth),
    cValues: new CValues(plan, plan.allocWidth, plan.allocHeight),
    antiDitheredFrom8Bit,
  };
}

/**
 * libvmaf's cambi on the CPU: the distorted luma (and with full_ref the reference) is
 * brought to 10 bits at the encoding (source) size, masked to flat areas, then at 5
 * scales mode-filtered, scored per pixel by c-values and pooled over the top k; the
 * scales are weighted 16:8:4:2:1 and normalised by the window's pixel count.
 */
export class CambiCpu implements FeatureExtractor<PicturePair> {
  readonly definition = cambiDefinition;
  private plan?: CambiPlan;
  /** Working buffers, sized once for the larger geometry. */
  private buffers?: CambiWorkspace;
  /** Room for a whole picture of c-values: only heatmaps and the pooling's quickselect need one. */
  private dense?: Float32Array;
  private readonly densePicture = (): Float32Array => (this.dense ??= new Float32Array(this.plan!.allocWidth * this.plan!.allocHeight));
  private heatmaps?: Heatmaps;
  private scoreName: string;
  private readonly perScale = new Float64Array(NUM_SCALES);

  /** `workspace`: the TypeScript reference's by default, the WebAssembly kernels' in CambiWasm (cambi-wasm.ts). */
  constructor(
    readonly options: CambiOptions,
    private readonly workspace: (plan: CambiPlan) => CambiWorkspace = typeScriptWorkspace,
  ) {
    this.scoreName = cambiScoreName(options);
  }

  init(format: PictureFormat): void {
    this.plan = planCambi(this.options, format);
    this.buffers = this.workspace(this.plan);
    this.dense = undefined;
    if (this.plan.heatmapsPath) this.heatmaps = new Heatmaps(this.plan);
  }

  extract(frame: PicturePair, index: number, collector: FeatureCollector): void {
    const plan = this.plan;
    if (!plan) throw new Error("cambi: extract before init");
    const dist = this.score(frame.dist.planes[0]!, plan.enc, index, true);
    const src = plan.fullRef ? this.score(frame.ref.planes[0]!, plan.src, index, false) : 0;
    appendCambiScores(collector, index, this.scoreName, plan, dist, src);
  }

  /** cambi of one picture's luma at geometry `g` (unclipped). */
  private score(luma: Plane, g: CambiGeometry, index: number, heatmap: boolean): number {
    const plan = this.plan!;
    const b = this.buffers!;
    const { mask, cValues } = b;
    let image = b.image;
    let other = b.other;
    const bitDepth = plan.input.bitDepth;
    checkLumaRange(luma, bitDepth);
    if (bitDepth === 8 && plan.encBitDepth < 10 && luma.width === g.width && luma.height === g.height) {
      b.antiDitheredFrom8Bit(luma, image);
    } else {
      toTenBit(luma, bitDepth, g.width, g.height, plan.allocWidth, image);
      if (plan.encBitDepth < 10) antiDither(image, g.width, g.height);
    }
    b.spatialMask.compute(image, g.width, g.height, mask);

    let w = g.width;
    let h = g.height;
    /** The half-size picture is in `other`: make it the current one, with its size and mask. */
    const toHalfSize = () => {
      const t = image;
      image = other;
      other = t;
      w = (w + 1) >> 1;
      h = (h + 1) >> 1;
      mask.decimate(h);
    };
    if (plan.highResSpeedup) {
      // scale 0 is already at half size: decimated before any filtering
      decimate(image, w, h, other);
      toHalfSize();
    }
    for (let scale = 0; scale < NUM_SCALES; scale++) {
      // the mode filter of the previous scale wrote this scale's picture into `other`
      if (scale > 0) toHalfSize();
      const filtered = b.modeFilter.run(image, w, h, mask, b.filtered, scale < NUM_SCALES - 1 ? other : null);
      cValues.compute(filtered, mask, w, h, g.windowSize);
      if (heatmap && this.heatmaps) {
        const dense = this.densePicture();
        cValues.writeDense(dense, w * h);
        this.heatmaps.write(dense, w, h, scale, g.windowSize, index);
      }
      this.perScale[scale] = spatialPooling(cValues, w * h, plan.topk, this.densePicture);
    }
    return combineScales(this.perScale, g.windowSize);
  }

  flush(_collector: FeatureCollector): void {}

  close(): void {
    this.heatmaps?.close();
    this.heatmaps = undefined;
  }
}

export function createCambiCpu(options: Partial<CambiOptions> = {}): CambiCpu {
  return new CambiCpu(cambiOptions.resolve(options));
}
