import type { Samples } from "@vq/core";
import type { DwtIndices } from "../numerics/dwt-indices.ts";

/**
 * float_adm's DWT (adm_dwt2_s): the same db2 filters in float, each product and sum
 * rounded to float (Math.fround) in libvmaf's order. Input pixels become floats
 * centred on 0 the way picture_copy does it.
 */

const f = Math.fround;
const LO = [0.48296291314469, 0.836516303737469, 0.224143868041857, -0.129409522550921].map(f) as [number, number, number, number];
const HI = [-0.129409522550921, -0.224143868041857, 0.836516303737469, -0.48296291314469].map(f) as [number, number, number, number];

export interface FloatBands {
  a: Float32Array;
  h: Float32Array;
  v: Float32Array;
  d: Float32Array;
}

/** picture_copy: p - 128 for 8-bit, p / 2^(bits-8) - 128 above (float). */
export function pictureToFloat(src: Samples, srcStride: number, w: number, h: number, bitDepth: number, out: Float32Array, outStride: number): void {
  const scaler = bitDepth === 8 ? 1 : bitDepth === 10 ? 4 : bitDepth === 12 ? 16 : 256;
  for (let i = 0; i < h; i++) {
    for (let j = 0; j < w; j++) out[i * outStride + j] = f(src[i * srcStride + j]! / scaler) - 128;
  }
}

function taps4(k: readonly number[], s0: number, s1: number, s2: number, s3: number): number {
  return f(f(f(f(k[0]! * s0) + f(k[1]! * s1)) + f(k[2]! * s2)) + f(k[3]! * s3));
}

/** One DWT level: src (w x h floats) to the four bands of (w+1)/2 x (h+1)/2; lowOnly: a band only. */
export function floatDwt2(
  src: Float32Array,
  srcStride: number,
  w: number,
  h: number,
  out: FloatBands,
  outStride: number,
  tmpLo: Float32Array,
  tmpHi: Float32Array,
  rows: DwtIndices,
  cols: DwtIndices,
  lowOnly: boolean,
): void {
  const halfW = (w + 1) >> 1;
  const halfH = (h + 1) >> 1;
  for (let i = 0; i < halfH; i++) {
    const r0 = rows.tap0[i]! * srcStride;
    const r1 = rows.tap1[i]! * srcStride;
    const r2 = rows.tap2[i]! * srcStride;
    const r3 = rows.tap3[i]! * srcStride;
    for (let j = 0; j < w; j++) {
      const s0 = src[r0 + j]!;
      const s1 = src[r1 + j]!;
      const s2 = src[r2 + j]!;
      const s3 = src[r3 + j]!;
      tmpLo[j] = taps4(LO, s0, s1, s2, s3);
      if (!lowOnly) tmpHi[j] = taps4(HI, s0, s1, s2, s3);
    }
    const row = i * outStride;
    for (let j = 0; j < halfW; j++) {
      const j0 = cols.tap0[j]!;
      const j1 = cols.tap1[j]!;
      const j2 = cols.tap2[j]!;
      const j3 = cols.tap3[j]!;
      out.a[row + j] = taps4(LO, tmpLo[j0]!, tmpLo[j1]!, tmpLo[j2]!, tmpLo[j3]!);
      if (lowOnly) continue;
      out.v[row + j] = taps4(HI, tmpLo[j0]!, tmpLo[j1]!, tmpLo[j2]!, tmpLo[j3]!);
      out.h[row + j] = taps4(LO, tmpHi[j0]!, tmpHi[j1]!, tmpHi[j2]!, tmpHi[j3]!);
      out.d[row + j] = taps4(HI, tmpHi[j0]!, tmpHi[j1]!, tmpHi[j2]!, tmpHi[j3]!);
    }
  }
}
