import type { Plane } from "@vq/core";
import type { Orientations } from "../numerics/decouple.ts";
import { DwtIndices } from "../numerics/dwt-indices.ts";
import { floatContrastMasking } from "./float-contrast-masking.ts";
import { floatCsf, floatCsfDenominator, floatCsfFactors, type FloatCsfSettings } from "./float-csf.ts";
import { floatDecouple } from "./float-decouple.ts";
import { floatDwt2, pictureToFloat, type FloatBands } from "./float-dwt2.ts";

export interface FloatAdmSettings extends FloatCsfSettings {
  enhancementGainLimit: number;
  noiseWeight: number;
  pNorm: number;
  bypassCm: boolean;
  skipAimScale: number;
  skipScale0: boolean;
}

export interface FloatAdmScores {
  score: number;
  aim: number;
  num: number;
  den: number;
  /** [num0, den0, num1, den1, ...] */
  readonly scales: Float64Array;
}

/**
 * libvmaf's float_adm (compute_adm in adm.c) on the luma planes of one frame pair:
 * the same four-scale DWT / decoupling / CSF / contrast-masking pipeline as the integer
 * adm, in float, with the AIM normalised by its own denominator and capped at 1.
 */
export class FloatAdmPipeline {
  private readonly rows: DwtIndices;
  private readonly cols: DwtIndices;
  private readonly refPixels: Float32Array;
  private readonly disPixels: Float32Array;
  private readonly tmpLo: Float32Array;
  private readonly tmpHi: Float32Array;
  private readonly ref: FloatBands;
  private readonly dis: FloatBands;
  private readonly restored: Orientations<Float32Array>;
  private readonly additive: Orientations<Float32Array>;
  private readonly csf: Orientations<Float32Array>;
  private readonly flt: Orientations<Float32Array>;
  private readonly stride: number;
  private readonly weights: [number, number, number][] = [];
  readonly result: FloatAdmScores = { score: 0, aim: 0, num: 0, den: 0, scales: new Float64Array(8) };
  private readonly totals: FloatAdmTotals;

  constructor(
    readonly width: number,
    readonly height: number,
    readonly bitDepth: number,
    private readonly settings: FloatAdmSettings,
  ) {
    const halfW = (width + 1) >> 1;
    const halfH = (height + 1) >> 1;
    this.stride = halfW;
    this.rows = new DwtIndices(halfH);
    this.cols = new DwtIndices(halfW);
    this.refPixels = new Float32Array(width * height);
    this.disPixels = new Float32Array(width * height);
    this.tmpLo = new Float32Array(width);
    this.tmpHi = new Float32Array(width);
    const band = () => new Float32Array(halfW * halfH);
    this.ref = { a: band(), h: band(), v: band(), d: band() };
    this.dis = { a: band(), h: band(), v: band(), d: band() };
    this.restored = { h: band(), v: band(), d: band() };
    this.additive = { h: band(), v: band(), d: band() };
    this.csf = { h: band(), v: band(), d: band() };
    this.flt = { h: band(), v: band(), d: band() };
    this.totals = new FloatAdmTotals(this.result, settings.skipAimScale);
    for (let scale = 0; scale < 4; scale++) {
      const [hv, diag] = floatCsfFactors(scale, settings);
      this.weights.push([hv, hv, diag]);
    }
  }

  compute(refPlane: Plane, disPlane: Plane): FloatAdmScores {
    const s = this.settings;
    const stride = this.stride;
    pictureToFloat(refPlane.data, refPlane.stride, this.width, this.height, this.bitDepth, this.refPixels, this.width);
    pictureToFloat(disPlane.data, disPlane.stride, this.width, this.height, this.bitDepth, this.disPixels, this.width);
    let refSrc = this.refPixels;
    let disSrc = this.disPixels;
    let srcStride = this.width;
    let w = this.width;
    let h = this.height;
    const totals = this.totals;
    totals.start();
    for (let scale = 0; scale < 4; scale++) {
      let numScale = 0;
      let denScale = 0;
      let aimScale = 0;
      this.rows.fill(h);
      this.cols.fill(w);
      const lowOnly = scale === 0 && s.skipScale0;
      floatDwt2(refSrc, srcStride, w, h, this.ref, stride, this.tmpLo, this.tmpHi, this.rows, this.cols, lowOnly);
      floatDwt2(disSrc, srcStride, w, h, this.dis, stride, this.tmpLo, this.tmpHi, this.rows, this.cols, lowOnly);
      w = (w + 1) >> 1;
      h = (h + 1) >> 1;
      if (lowOnly) {
        denScale = Math.fround(1e-10); // libvmaf's guard against dividing by zero
      } else {
        const weights = this.weights[scale]!;
        const layout = { w, h, stride, noiseWeight: s.noiseWeight, pNorm: s.pNorm, bypass: s.bypassCm };
        floatDecouple(this.ref, this.dis, this.restored, this.additive, w, h, stride, s.enhancementGainLimit);
        denScale = floatCsfDenominator(this.ref, w, h, stride, weights, s.noiseWeight, s.pNorm);
        floatCsf(this.additive, this.csf, this.flt, weights, w, h, stride);
        numScale = floatContrastMasking(this.restored, this.csf, this.flt, weights, layout);
        floatCsf(this.restored, this.csf, this.flt, weights, w, h, stride);
        aimScale = floatContrastMasking(this.additive, this.csf, this.flt, weights, { ...layout, noiseWeight: 0 });
      }
      totals.add(scale, numScale, denScale, aimScale);
      refSrc = this.ref.a;
      disSrc = this.dis.a;
      srcStride = stride;
    }
    return totals.finish(this.width * this.height);
  }
}

/**
 * A frame's sums over the scales as compute_adm adds them (num and den of every scale, the
 * AIM's of all but the scale it skips), then its score and AIM: totals below libvmaf's
 * area-scaled 1e-10 count as 0, and a zero denominator scores 1.
 */
export class FloatAdmTotals {
  private num = 0;
  private den = 0;
  private aimNum = 0;
  private aimDen = 0;

  constructor(
    private readonly result: FloatAdmScores,
    private readonly skipAimScale: number,
  ) {}

  start(): void {
    this.num = this.den = this.aimNum = this.aimDen = 0;
  }

  add(scale: number, numScale: number, denScale: number, aimScale: number): void {
    this.num += numScale;
    this.den += denScale;
    if (this.skipAimScale !== scale) {
      this.aimDen += denScale;
      this.aimNum += aimScale;
    }
    this.result.scales[2 * scale] = numScale;
    this.result.scales[2 * scale + 1] = denScale;
  }

  finish(area: number): FloatAdmScores {
    const limit = (1e-10 * area) / (1920.0 * 1080.0);
    const num = this.num < limit ? 0 : this.num;
    const den = this.den < limit ? 0 : this.den;
    const r = this.result;
    if (den === 0) {
      r.score = 1.0;
      r.aim = 0; // uninitialised in libvmaf
    } else {
      r.aim = Math.min(this.aimNum / this.aimDen, 1.0);
      r.score = num / den;
    }
    r.num = num;
    r.den = den;
    return r;
  }
}
