import { uint64ToNumber } from "@vq/core";
import type { AdmGeometry } from "./adm-gpu-geometry.ts";
import { SUM_WORDS_PER_SCALE } from "./adm-gpu-params.ts";
import type { AdmScores, AdmSettings } from "../cpu/adm-pipeline.ts";
import { int32Numerator, scale0Numerator } from "../numerics/contrast-masking.ts";
import { csfFactors } from "../numerics/csf.ts";
import { int32Denominator, scale0Denominator } from "../numerics/csf-den.ts";
import { admFrameTotals, numDenLimit } from "../cpu/frame-totals.ts";
import { int64ToFloat32 } from "../numerics/int64.ts";

/**
 * One frame's scores from the sums the GPU twin reads back: per scale the uint64
 * denominator sums and the int64 DLM and AIM sums of h, v and d, (low, high) words each.
 * libvmaf's float steps after them are the CPU path's own functions.
 */

function int64At(words: Uint32Array, at: number): bigint {
  return BigInt.asIntN(64, (BigInt(words[at + 1]!) << 32n) | BigInt(words[at]!));
}

function threeSums(words: Uint32Array, at: number, convert: (w: Uint32Array, at: number) => number): number[] {
  return [convert(words, at), convert(words, at + 2), convert(words, at + 4)];
}

/** C's (double) of a uint64 sum. */
const uint64Double = (w: Uint32Array, at: number) => uint64ToNumber(w[at + 1]!, w[at]!);
/** C's (double) of an int64 sum. */
const int64Double = (w: Uint32Array, at: number) => Number(int64At(w, at));
/** C's (float) of an int64 sum. */
const int64Float = (w: Uint32Array, at: number) => int64ToFloat32(int64At(w, at));

export function admScoresFromSums(words: Uint32Array, geometry: AdmGeometry, width: number, height: number, settings: AdmSettings, out: AdmScores): AdmScores {
  const aimScales = [0, 0, 0, 0];
  for (let scale = 0; scale < 4; scale++) {
    const { w, h } = geometry.scales[scale]!;
    const base = scale * SUM_WORDS_PER_SCALE;
    let num = 0;
    let den = 0;
    if (scale === 0 && settings.skipScale0) {
      den = Math.fround(1e-10); // libvmaf's guard against dividing by zero
    } else {
      const [hv, diag] = csfFactors(scale, settings);
      const weights = [hv, hv, diag];
      const dens = threeSums(words, base, uint64Double);
      if (scale === 0) {
        den = scale0Denominator(dens, w, h, weights, settings.noiseWeight);
        num = scale0Numerator(threeSums(words, base + 6, int64Double), w, h, settings.noiseWeight);
        if (!settings.skipAim) aimScales[0] = scale0Numerator(threeSums(words, base + 12, int64Double), w, h, 0);
      } else {
        den = int32Denominator(dens, scale, w, h, weights, settings.noiseWeight);
        num = int32Numerator(threeSums(words, base + 6, int64Float), scale, w, h, settings.noiseWeight);
        if (!settings.skipAim) aimScales[scale] = int32Numerator(threeSums(words, base + 12, int64Float), scale, w, h, 0);
      }
    }
    out.scales[2 * scale] = num;
    out.scales[2 * scale + 1] = den;
  }
  return admFrameTotals(out, aimScales, numDenLimit(width, height));
}
