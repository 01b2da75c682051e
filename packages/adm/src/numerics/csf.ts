import { VqError } from "@vq/core";
import { bartenCsf, CSF_LUMINANCE } from "./barten-csf.ts";

/**
 * Contrast sensitivity weights of the four DWT scales: one for the horizontal and
 * vertical bands, one for the diagonal band, as floats (libvmaf keeps them in float),
 * plus the fixed-point forms the integer pipeline multiplies with.
 */

const f = Math.fround;

export const CSF_WATSON97 = 0;
export const CSF_BARTEN = 1;
export const CSF_BARTEN_WATSON_BLEND = 2;
export const CSF_BARTEN_WATSON_BLEND_MAE = 3;

// Watson et al. 1997, "Visibility of wavelet quantization noise": luma threshold model
// (Table IV, formula 7) and 7-9 biorthogonal basis amplitudes A[lambda][theta] (Table V).
const WATSON_A = f(0.495);
const WATSON_K = f(0.466);
const WATSON_F0 = f(0.401);
const WATSON_G = [1.501, 1.0, 0.534, 1.0].map(f);
const BASIS_AMPLITUDES = [
  [0.62171, 0.67234, 0.72709, 0.67234],
  [0.34537, 0.41317, 0.49428, 0.41317],
  [0.18004, 0.22727, 0.28688, 0.22727],
  [0.091401, 0.11792, 0.15214, 0.11792],
  [0.045943, 0.059758, 0.077727, 0.059758],
  [0.023013, 0.030018, 0.039156, 0.030018],
].map((row) => row.map(f));

/** Watson's quantisation step for scale lambda, orientation theta (1 = h/v, 2 = diagonal). */
function watsonQuantStep(lambda: number, theta: number, normViewDist: number, refDisplayHeight: number): number {
  // display visual resolution in pixels per degree (~56.55 for 1080 lines at 3H)
  const r = f((normViewDist * refDisplayHeight * Math.PI) / 180.0);
  const temp = f(Math.log10((Math.pow(2.0, lambda + 1) * WATSON_F0 * WATSON_G[theta]!) / r));
  const exponent = f(f(WATSON_K * temp) * temp); // float * float in libvmaf
  return f((2.0 * WATSON_A * Math.pow(10.0, exponent)) / BASIS_AMPLITUDES[lambda]![theta]!);
}

// Weights fitted by Netflix for the VMAF v1 models (rows: h/v, diagonal; columns: scale).
const BLEND: Record<string, readonly (readonly number[])[]> = {
  "1080_3": [[0.01183, 0.025026, 0.04295, 0.058621], [0.004302, 0.011778, 0.023918, 0.035901]],
  "1080_5": [[0.004212, 0.014809, 0.029642, 0.047464], [0.000984, 0.005852, 0.0146, 0.027574]],
  "2160_3": [[0.00226, 0.01183, 0.025026, 0.04295], [0.000479, 0.004302, 0.011778, 0.023918]],
  "2160_5": [[0.000092, 0.004212, 0.014809, 0.029642], [0.00005, 0.000984, 0.005852, 0.0146]],
  "720_3": [[0.018715, 0.035637, 0.052798, 0.061509], [0.007999, 0.018396, 0.031851, 0.037718]],
  "720_5": [[0.010144, 0.022561, 0.040309, 0.05672], [0.003463, 0.010282, 0.021839, 0.034641]],
  "480_3": [[0.027961, 0.045875, 0.060275, 0.056234], [0.013572, 0.026277, 0.036959, 0.034511]],
  "480_5": [[0.016781, 0.032822, 0.05032, 0.061594], [0.00691, 0.016545, 0.029917, 0.037777]],
};
// The same after the L1-fit fix (v1.0.17+ models).
const BLEND_MAE: Record<string, readonly (readonly number[])[]> = {
  "1080_3": [[0.011249, 0.022606, 0.03593, 0.045673], [0.004097, 0.010921, 0.02143, 0.031313]],
  "1080_5": [[0.004052, 0.013939, 0.026298, 0.038833], [0.000927, 0.005544, 0.013415, 0.024515]],
  "2160_3": [[0.002166, 0.011249, 0.022606, 0.03593], [0.000447, 0.004097, 0.010921, 0.02143]],
  "2160_5": [[0.000077, 0.004052, 0.013939, 0.026298], [0.000045, 0.000927, 0.005544, 0.013415]],
  "720_3": [[0.017329, 0.03087, 0.042134, 0.04741], [0.007509, 0.016707, 0.028072, 0.032722]],
  "720_5": [[0.009689, 0.020577, 0.034162, 0.044523], [0.003302, 0.009579, 0.019661, 0.030318]],
  "480_3": [[0.024969, 0.037825, 0.046676, 0.043974], [0.012511, 0.023424, 0.032139, 0.030166]],
  "480_5": [[0.015665, 0.028766, 0.040612, 0.047483], [0.006514, 0.015107, 0.026476, 0.032776]],
};

function blendTable(tables: typeof BLEND, normViewDist: number, refDisplayHeight: number): readonly (readonly number[])[] | undefined {
  // 2160 lines at 1.5H has the pixels per degree of 1080 at 3H; libvmaf reuses that row.
  if (refDisplayHeight === 2160 && normViewDist === 1.5) return tables["1080_3"];
  if (normViewDist !== 3.0 && normViewDist !== 5.0) return undefined;
  return tables[`${refDisplayHeight}_${normViewDist}`];
}

export interface CsfSettings {
  mode: number;
  normViewDist: number;
  refDisplayHeight: number;
  csfScale: number;
  csfDiagScale: number;
}

/** The float CSF weights [h/v, diagonal] of one scale (0 = finest). */
export function csfFactors(scale: number, s: CsfSettings): [number, number] {
  switch (s.mode) {
    case CSF_BARTEN:
      return [
        bartenCsf(scale, s.normViewDist, s.refDisplayHeight, CSF_LUMINANCE, s.csfScale),
        bartenCsf(scale, s.normViewDist, s.refDisplayHeight, CSF_LUMINANCE, s.csfDiagScale),
      ];
    case CSF_BARTEN_WATSON_BLEND:
    case CSF_BARTEN_WATSON_BLEND_MAE: {
      const table = blendTable(s.mode === CSF_BARTEN_WATSON_BLEND ? BLEND : BLEND_MAE, s.normViewDist, s.refDisplayHeight);
      if (!table) {
        // libvmaf would use -EINVAL (-22) as the weight and produce garbage.
        throw new VqError(
          `feature adm: adm_csf_mode=${s.mode} has weights only for adm_ref_display_height 480, 720, 1080, 2160 at adm_norm_view_dist 3 or 5 (and 2160 at 1.5), not ${s.refDisplayHeight} at ${s.normViewDist}`,
        );
      }
      return [f(table[0]![scale]!), f(table[1]![scale]!)];
    }
    default:
      return [
        f(1.0 / watsonQuantStep(scale, 1, s.normViewDist, s.refDisplayHeight)),
        f(1.0 / watsonQuantStep(scale, 2, s.normViewDist, s.refDisplayHeight)),
      ];
  }
}

/**
 * Scale 0's weights in fixed point, [h, v, d]: Q21 for h and v, Q23 for d, truncated to
 * uint16 as libvmaf does; libvmaf hard-codes the default viewing conditions' values.
 */
export function scale0FixedFactors(s: CsfSettings): [number, number, number] {
  if (Math.abs(s.normViewDist * s.refDisplayHeight - 3.0 * 1080) < 1.0e-8 && s.mode === CSF_WATSON97) return [36453, 36453, 49417];
  const [hv, diag] = csfFactors(0, s);
  const hvFixed = Math.trunc(hv * 2 ** 21) & 0xffff;
  return [hvFixed, hvFixed, Math.trunc(diag * 2 ** 23) & 0xffff];
}

/** Scales 1 to 3's weights in Q32, [h, v, d], as uint32 (x86 truncation). */
export function fixedFactorsQ32(scale: number, s: CsfSettings): [number, number, number] {
  const [hv, diag] = csfFactors(scale, s);
  return [(hv * 2 ** 32) >>> 0, (hv * 2 ** 32) >>> 0, (diag * 2 ** 32) >>> 0];
}
