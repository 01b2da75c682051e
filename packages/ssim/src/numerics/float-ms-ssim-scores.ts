import { VqError, type FeatureCollector, type PictureFormat } from "@vq/core";
import { FLOAT_MS_SSIM_NAMES, MS_SSIM_SCALES, type FloatMsSsimOptions } from "../float-ms-ssim-definition.ts";
import { maxDb, toDb } from "./ssim-db.ts";
import type { SsimMeans } from "./ssim-statistics.ts";

const f32 = Math.fround;

/** Wang's exponents per scale, as libvmaf's float tables hold them: luminance only at the coarsest scale. */
const ALPHAS = [0, 0, 0, 0, 0.1333].map(f32);
const BETAS = [0.0448, 0.2856, 0.3001, 0.2363, 0.1333].map(f32);
const GAMMAS = BETAS;

/**
 * MS-SSIM from the per-scale means of l, c and s: the product over scales of
 * l^α·c^β·s^γ, in double, in libvmaf's order. Shared by the CPU and GPU twins.
 */
export function msSsim(scales: readonly SsimMeans[]): number {
  let product = 1;
  for (let i = 0; i < MS_SSIM_SCALES; i++) {
    const m = scales[i]!;
    product *= Math.pow(m.l, ALPHAS[i]!) * Math.pow(m.c, BETAS[i]!) * Math.pow(m.s, GAMMAS[i]!);
    if (product === Infinity) throw new VqError("feature float_ms_ssim: MS-SSIM is infinite");
  }
  return product;
}

/**
 * A negative mean contrast or structure (anti-correlated pictures, e.g. one the negative of
 * the other) has no real power: libvmaf's pow returns NaN and it writes "nan". vq stops
 * with the reason instead of writing a NaN.
 */
function undefinedScore(scales: readonly SsimMeans[], index: number): VqError {
  // the scale whose term is NaN: a negative base under a fractional exponent (l's is 0 below scale 4)
  const i = scales.findIndex((m, k) => !(m.c >= 0 && m.s >= 0 && (m.l >= 0 || ALPHAS[k] === 0)));
  const m = scales[i];
  const what = m ? `scale ${i} has mean l ${m.l}, c ${m.c}, s ${m.s}` : "a mean is not a number";
  return new VqError(`feature float_ms_ssim: frame ${index}: MS-SSIM is undefined (${what}; libvmaf's pow gives NaN for a negative mean)`);
}

/** Writes float_ms_ssim (and with enable_lcs the per-scale l, c, s) for one frame. */
export class FloatMsSsimScorer {
  private readonly maxDb: number;

  constructor(private readonly options: FloatMsSsimOptions, format: PictureFormat) {
    this.maxDb = maxDb(options.clip_db, format.bitDepth, format.width, format.height);
  }

  write(scales: readonly SsimMeans[], index: number, collector: FeatureCollector): void {
    const score = msSsim(scales);
    if (Number.isNaN(score)) throw undefinedScore(scales, index);
    const n = FLOAT_MS_SSIM_NAMES;
    collector.append(n.msSsim, index, this.options.enable_db ? toDb(score, this.maxDb) : score);
    if (!this.options.enable_lcs) return;
    for (let i = 0; i < MS_SSIM_SCALES; i++) collector.append(n.l[i]!, index, scales[i]!.l);
    for (let i = 0; i < MS_SSIM_SCALES; i++) collector.append(n.c[i]!, index, scales[i]!.c);
    for (let i = 0; i < MS_SSIM_SCALES; i++) collector.append(n.s[i]!, index, scales[i]!.s);
  }
}
