import type { Plane } from "@vq/core";
import { AdmBuffers } from "./adm-buffers.ts";
import { contrastMaskingInt32, contrastMaskingScale0 } from "../numerics/contrast-masking.ts";
import { csfFactors, fixedFactorsQ32, scale0FixedFactors, type CsfSettings } from "../numerics/csf.ts";
import { csfMaskerInt32, csfMaskerScale0 } from "../numerics/csf-bands.ts";
import { csfDenominatorInt32, csfDenominatorScale0 } from "../numerics/csf-den.ts";
import { decoupleInt32, decoupleScale0, DivisionTable } from "../numerics/decouple.ts";
import { dwt2Scale0, dwt2Scale123 } from "../numerics/dwt2.ts";
import { admFrameTotals, numDenLimit } from "./frame-totals.ts";

/**
 * Which libvmaf build to reproduce: the chunk sizes of the x86 DWT kernels whose last
 * vector chunk reads unmirrored taps (see dwt2.ts); 0 = the portable C code.
 */
export interface SimdProfile {
  readonly scale0Bits8: number;
  readonly scale0HighBits: number;
  readonly scales123: number;
}

export const SIMD_PROFILES = {
  c: { scale0Bits8: 0, scale0HighBits: 0, scales123: 0 },
  // the 8-bit AVX2 kernel (used when width % 8 == 0) never reaches the last column
  avx2: { scale0Bits8: 0, scale0HighBits: 16, scales123: 4 },
  avx512: { scale0Bits8: 32, scale0HighBits: 64, scales123: 8 },
} as const satisfies Record<string, SimdProfile>;

export interface AdmSettings extends CsfSettings {
  simd?: SimdProfile;
  enhancementGainLimit: number;
  noiseWeight: number;
  skipAim: boolean;
  skipScale0: boolean;
}

/** One frame's result, as libvmaf's integer_compute_adm returns it. */
export interface AdmScores {
  /** num / den (1 when den is 0) */
  score: number;
  /** aim_num / den */
  aim: number;
  num: number;
  den: number;
  /** [num0, den0, num1, den1, ...]: the per-scale floats */
  readonly scales: Float64Array;
}

// Built on the CPU path's first frame, not at import: a GPU run imports this module and never divides here (~5 ms of a cold start).
let divLookup: DivisionTable | undefined;
const divisionLookup = (): DivisionTable => (divLookup ??= new DivisionTable());

/**
 * libvmaf's integer adm on the luma planes of one frame pair: four DWT scales, each
 * decoupled into restored and additive parts, CSF-weighted and contrast-masked (DLM
 * numerator and, unless skipped, the AIM numerator), over the reference's CSF norm.
 */
export class AdmPipeline {
  private readonly buffers: AdmBuffers;
  private readonly floatWeights: [number, number, number][] = [];
  private readonly scale0Weights: [number, number, number];
  private readonly q32Weights: [number, number, number][] = [];
  private readonly numDenLimit: number;
  private readonly aimScales = new Float64Array(4);
  readonly result: AdmScores = { score: 0, aim: 0, num: 0, den: 0, scales: new Float64Array(8) };

  constructor(
    readonly width: number,
    readonly height: number,
    readonly bitDepth: number,
    private readonly settings: AdmSettings,
  ) {
    this.buffers = new AdmBuffers(width, height);
    for (let scale = 0; scale < 4; scale++) {
      const [hv, diag] = csfFactors(scale, settings);
      this.floatWeights.push([hv, hv, diag]);
      this.q32Weights.push(scale === 0 ? [0, 0, 0] : fixedFactorsQ32(scale, settings));
    }
    this.scale0Weights = scale0FixedFactors(settings);
    this.numDenLimit = numDenLimit(width, height);
  }

  compute(ref: Plane, dis: Plane): AdmScores {
    const b = this.buffers;
    const s = this.settings;
    const stride = b.stride;
    const simd = s.simd ?? SIMD_PROFILES.avx512;
    const scales = this.result.scales;
    let w = this.width;
    let h = this.height;
    const aimScales = this.aimScales;
    for (let scale = 0; scale < 4; scale++) {
      let numScale = 0;
      let denScale = 0;
      let aimScale = 0;
      b.rows.fill(h);
      b.cols.fill(w);
      if (scale === 0) {
        const lowOnly = s.skipScale0;
        const chunk0 = this.bitDepth === 8 ? simd.scale0Bits8 : simd.scale0HighBits;
        dwt2Scale0(ref.data, ref.stride, w, h, this.bitDepth, b.ref16, stride, b.tmp16, b.rows, b.cols, lowOnly, chunk0);
        dwt2Scale0(dis.data, dis.stride, w, h, this.bitDepth, b.dis16, stride, b.tmp16, b.rows, b.cols, lowOnly, chunk0);
        w = (w + 1) >> 1;
        h = (h + 1) >> 1;
        if (lowOnly) {
          denScale = Math.fround(1e-10); // libvmaf's guard against dividing by zero
        } else {
          decoupleScale0(b.ref16, b.dis16, b.restored16, b.additive16, w, h, stride, s.enhancementGainLimit, divisionLookup());
          denScale = csfDenominatorScale0(b.ref16, w, h, stride, this.floatWeights[0]!, s.noiseWeight);
          const layout = { w, h, stride, noiseWeight: s.noiseWeight };
          csfMaskerScale0(b.additive16, this.scale0Weights, w, h, stride, b.masker16);
          numScale = contrastMaskingScale0(b.restored16, b.masker16, this.scale0Weights, layout);
          if (!s.skipAim) {
            csfMaskerScale0(b.restored16, this.scale0Weights, w, h, stride, b.masker16);
            aimScale = contrastMaskingScale0(b.additive16, b.masker16, this.scale0Weights, { ...layout, noiseWeight: 0 });
          }
        }
      } else {
        const srcRef = scale === 1 ? b.ref16.a : b.ref32.a;
        const srcDis = scale === 1 ? b.dis16.a : b.dis32.a;
        dwt2Scale123(srcRef, srcDis, w, h, stride, scale, b.ref32, b.dis32, b.tmp32, b.rows, b.cols, simd.scales123);
        w = (w + 1) >> 1;
        h = (h + 1) >> 1;
        const weights = this.q32Weights[scale]!;
        decoupleInt32(b.ref32, b.dis32, b.restored32, b.additive32, w, h, stride, s.enhancementGainLimit, divisionLookup());
        denScale = csfDenominatorInt32(b.ref32, scale, w, h, stride, this.floatWeights[scale]!, s.noiseWeight);
        const layout = { w, h, stride, noiseWeight: s.noiseWeight };
        // the restored bands' CSF values are both the DLM's x and the AIM's masker (and vice versa)
        csfMaskerInt32(b.additive32, weights, w, h, stride, b.csfAdditive32, b.maskerAdditive32);
        csfMaskerInt32(b.restored32, weights, w, h, stride, b.csfRestored32, b.maskerRestored32);
        numScale = contrastMaskingInt32(b.csfRestored32, b.maskerAdditive32, scale, layout);
        if (!s.skipAim) aimScale = contrastMaskingInt32(b.csfAdditive32, b.maskerRestored32, scale, { ...layout, noiseWeight: 0 });
      }
      scales[2 * scale] = numScale;
      scales[2 * scale + 1] = denScale;
      aimScales[scale] = aimScale;
    }
    return admFrameTotals(this.result, aimScales, this.numDenLimit);
  }
}
