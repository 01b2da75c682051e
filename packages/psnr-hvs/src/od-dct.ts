/**
 * Daala's integer 8-point DCT (od_bin_fdct8, lifting steps with rounding shifts) and
 * its 8x8 separable form, which libvmaf's psnr_hvs (from Xiph) uses. int32 arithmetic
 * as in C; no intermediate reaches 2^31 for samples of up to 12 bits.
 */

/** (a + (a < 0)) >> 1: halving rounded toward zero (Daala's OD_DCT_RSHIFT(a, 1)). */
function half(a: number): number {
  return (a + (a >>> 31)) >> 1;
}

/** One 8-point transform: reads x[at + k·stride], writes y[out + k] for k = 0..7. */
function fdct8(y: Int32Array, out: number, x: Int32Array, at: number, stride: number): void {
  let t0 = x[at]!;
  let t4 = x[at + stride]!;
  let t2 = x[at + 2 * stride]!;
  let t6 = x[at + 3 * stride]!;
  let t7 = x[at + 4 * stride]!;
  let t3 = x[at + 5 * stride]!;
  let t5 = x[at + 6 * stride]!;
  let t1 = x[at + 7 * stride]!;
  // +1/-1 butterflies
  t1 = t0 - t1;
  const t1h = half(t1);
  t0 -= t1h;
  t4 += t5;
  const t4h = half(t4);
  t5 -= t4h;
  t3 = t2 - t3;
  t2 -= half(t3);
  t6 += t7;
  const t6h = half(t6);
  t7 = t6h - t7;
  // embedded 4-point type-II DCT
  t0 += t6h;
  t6 = t0 - t6;
  t2 = t4h - t2;
  t4 = t2 - t4;
  // embedded 2-point type-II DCT
  t0 -= (Math.imul(t4, 13573) + 16384) >> 15;
  t4 += (Math.imul(t0, 11585) + 8192) >> 14;
  t0 -= (Math.imul(t4, 13573) + 16384) >> 15;
  // embedded 2-point type-IV DST
  t6 -= (Math.imul(t2, 21895) + 16384) >> 15;
  t2 += (Math.imul(t6, 15137) + 8192) >> 14;
  t6 -= (Math.imul(t2, 21895) + 16384) >> 15;
  // embedded 4-point type-IV DST
  t3 += (Math.imul(t5, 19195) + 16384) >> 15;
  t5 += (Math.imul(t3, 11585) + 8192) >> 14;
  t3 -= (Math.imul(t5, 7489) + 4096) >> 13;
  t7 = half(t5) - t7;
  t5 -= t7;
  t3 = t1h - t3;
  t1 -= t3;
  t7 += (Math.imul(t1, 3227) + 16384) >> 15;
  t1 -= (Math.imul(t7, 6393) + 16384) >> 15;
  t7 += (Math.imul(t1, 3227) + 16384) >> 15;
  t5 += (Math.imul(t3, 2485) + 4096) >> 13;
  t3 -= (Math.imul(t5, 18205) + 16384) >> 15;
  t5 += (Math.imul(t3, 2485) + 4096) >> 13;
  y[out] = t0;
  y[out + 1] = t1;
  y[out + 2] = t2;
  y[out + 3] = t3;
  y[out + 4] = t4;
  y[out + 5] = t5;
  y[out + 6] = t6;
  y[out + 7] = t7;
}

/** 8x8 DCT of the row-major block x into y (may be x): columns first, then rows, like od_bin_fdct8x8. */
export function fdct8x8(y: Int32Array, x: Int32Array, scratch: Int32Array): void {
  for (let i = 0; i < 8; i++) fdct8(scratch, 8 * i, x, i, 8);
  for (let i = 0; i < 8; i++) fdct8(y, 8 * i, scratch, i, 8);
}
