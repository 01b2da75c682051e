import paramsWgsl from "../../../../shaders/adm/params.wgsl" with { type: "text" };
import { filterRegion, scoreRegion } from "../numerics/band-region.ts";
import { walkRange } from "../numerics/contrast-masking.ts";
import { fixedFactorsQ32, scale0FixedFactors } from "../numerics/csf.ts";
import { DEN_SQUARE_SHIFT, scale0RowShift } from "../numerics/csf-den.ts";
import { COS_1DEG_SQ } from "../numerics/decouple.ts";
import { ceilLog2 } from "../numerics/dwt-indices.ts";
import { DWT123_ROUNDING, scale0Rounding, vectorOvershoots } from "../numerics/dwt2.ts";
import { previousRowSource, staleSource, type AdmGeometry } from "./adm-gpu-geometry.ts";
import { SIMD_PROFILES, type AdmSettings } from "../cpu/adm-pipeline.ts";

/**
 * The uniform block every adm kernel reads (shaders/adm/params.wgsl's AdmParams), one per
 * scale. The field order is read from the WGSL struct, so the two cannot disagree.
 */
export const PARAM_FIELDS: readonly string[] = [...paramsWgsl.slice(paramsWgsl.indexOf("struct AdmParams")).matchAll(/^\s*(\w+):\s*u32,/gm)].map((m) => m[1]!);

/** Bytes of one AdmParams block (a uniform struct rounds up to 16). */
export const PARAMS_BYTES = Math.ceil((PARAM_FIELDS.length * 4) / 16) * 16;

/** Words per scale in the result buffer: uint64 den, num and aim sums of h, v, d. */
export const SUM_WORDS_PER_SCALE = 18;

type Fields = Record<string, number>;

/** The double `gain` as m * 2^-shift with a 53-bit integer m (split in two words). */
export function gainParts(gain: number): { hi: number; lo: number; shift: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, gain);
  const exponent = ((view.getUint32(0) >>> 20) & 0x7ff) - 1023;
  return { hi: (view.getUint32(0) & 0xfffff) | 0x100000, lo: view.getUint32(4), shift: 52 - exponent };
}

/** A normal float as m * 2^e with a 24-bit integer m. */
function floatParts(x: number): { m: number; e: number } {
  const view = new DataView(new ArrayBuffer(4));
  view.setFloat32(0, x);
  const bits = view.getUint32(0);
  return { m: (bits & 0x7fffff) | 0x800000, e: ((bits >>> 23) & 0xff) - 127 - 23 };
}

function pack(fields: Fields): Uint32Array<ArrayBuffer> {
  const out = new Uint32Array(PARAMS_BYTES / 4);
  const unknown = Object.keys(fields).filter((k) => !PARAM_FIELDS.includes(k));
  if (unknown.length) throw new Error(`adm params: no field ${unknown.join(", ")} in AdmParams`);
  PARAM_FIELDS.forEach((name, i) => {
    out[i] = (fields[name] ?? 0) >>> 0;
  });
  return out;
}

/** The AdmParams of every scale for a picture of this geometry and bit depth. */
export function admParams(geometry: AdmGeometry, width: number, bitDepth: number, settings: AdmSettings): Uint32Array<ArrayBuffer>[] {
  const simd = settings.simd ?? SIMD_PROFILES.avx512;
  const gain = gainParts(settings.enhancementGainLimit);
  const cos = floatParts(COS_1DEG_SQ);
  const stale = staleSource(geometry, width);
  return geometry.scales.map((g, scale) => {
    const filter = filterRegion(g.w, g.h);
    const score = scoreRegion(g.w, g.h);
    const walk = walkRange(g.w, g.h);
    const common: Fields = {
      in_w: g.inW,
      in_h: g.inH,
      w: g.w,
      h: g.h,
      band_cap: geometry.bandCap,
      dst_ref: g.aRef,
      dst_dis: g.aDis,
      f_left: filter.left,
      f_top: filter.top,
      f_right: filter.right,
      f_bottom: filter.bottom,
      s_left: score.left,
      s_top: score.top,
      s_right: score.right,
      s_bottom: score.bottom,
      m_row0: walk.rowStart,
      m_row1: walk.rowEnd,
      m_col0: walk.colStart,
      m_col1: walk.colEnd,
      gain_hi: gain.hi,
      gain_lo: gain.lo,
      gain_shift: gain.shift,
      cos_m: cos.m,
      cos_e: cos.e,
      skip_aim: settings.skipAim ? 1 : 0,
      row_shift: ceilLog2(g.h),
      sums_base: scale * SUM_WORDS_PER_SCALE,
    };
    if (scale === 0) {
      const { shift, round, centre } = scale0Rounding(bitDepth);
      const [wh, wv, wd] = scale0FixedFactors(settings);
      const chunk = bitDepth === 8 ? simd.scale0Bits8 : simd.scale0HighBits;
      return pack({
        ...common,
        v_round: round,
        v_shift: shift,
        centre,
        low_only: settings.skipScale0 ? 1 : 0,
        overshoot: !settings.skipScale0 && vectorOvershoots(g.w, chunk) ? 1 : 0,
        weight_h: wh,
        weight_v: wv,
        weight_d: wd,
        den_row_shift: scale0RowShift((score.bottom - score.top) * (score.right - score.left)),
        cube_hv: ceilLog2(g.w) - 4,
        cube_d: ceilLog2(g.w) - 3,
      });
    }
    const input = geometry.scales[scale - 1]!;
    const rounding = DWT123_ROUNDING[scale - 1]!;
    const [wh, wv, wd] = fixedFactorsQ32(scale, settings);
    const fields: Fields = {
      ...common,
      src_ref: input.aRef,
      src_dis: input.aDis,
      v_round: rounding.vRound,
      v_shift: rounding.vShift,
      h_round: rounding.hRound,
      h_shift: rounding.hShift,
      overshoot: vectorOvershoots(g.w, simd.scales123) ? 1 : 0,
      weight_h: wh,
      weight_v: wv,
      weight_d: wd,
      den_square_shift: DEN_SQUARE_SHIFT[scale - 1]!,
      den_cube_shift: ceilLog2(score.right - score.left),
      den_row_shift: ceilLog2(score.bottom - score.top),
      cube_hv: ceilLog2(g.w),
      cube_d: ceilLog2(g.w),
    };
    if (scale === stale.scale) Object.assign(fields, { stale_seg: stale.segment, stale_col: stale.column });
    if (scale >= 2) {
      const source = previousRowSource(geometry, scale);
      // the value read must be one of the previous scale's four last rows
      if (source.segment > 3 || source.column + 1 >= input.inW) throw new Error(`adm: scale ${scale} reads past the previous scale's rows`);
      const prevInput = geometry.scales[scale - 2]!;
      const prevRounding = DWT123_ROUNDING[scale - 2]!;
      Object.assign(fields, {
        has_prev: 1,
        prev_row: input.h - 1,
        prev_seg: source.segment,
        prev_col: source.column,
        prev_src_ref: prevInput.aRef,
        prev_src_dis: prevInput.aDis,
        prev_in_w: input.inW,
        prev_in_h: input.inH,
        prev_v_round: prevRounding.vRound,
        prev_v_shift: prevRounding.vShift,
      });
    }
    return pack(fields);
  });
}
