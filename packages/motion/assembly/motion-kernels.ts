// Integer motion's WebAssembly SIMD kernels, in AssemblyScript (ADR 0040): src/motion-sad.ts's
// blurColumns and narrow SAD, bit for bit (that file stays the readable specification).
// Built by tools/build-wasm.ts into src/wasm/motion-kernels.wasm.ts.
//
// The caller (src/motion-wasm.ts) lays out memory: a u16 luma plane (u8 for 8-bit pictures),
// i32 column planes, and an i32 row with 2 samples of padding on each side plus slack. Loops
// run four or eight columns a step and may read or write up to 7 samples past a row's end.

const F0: i32 = 3571;
const F1: i32 = 16004;
const F2: i32 = 26386;

/** Where the caller may start laying out its buffers. */
export function heapBase(): usize {
  return __heap_base;
}

/** libvmaf's reflect-101 edge. */
@inline
function mirror(index: i32, size: i32): i32 {
  if (index < 0) return -index;
  if (index >= size) return 2 * size - index - 2;
  return index;
}

/**
 * blurColumns: out = Σ_k filter[k] · luma[mirror(y − 2 + k)] + base, per column.
 * Returns the OR of every sample (the caller compares it with 2^15).
 */
export function blurColumns(luma: usize, stride: i32, width: i32, height: i32, base: i32, out: usize): i32 {
  const f0 = i32x4.splat(F0), f1 = i32x4.splat(F1), f2 = i32x4.splat(F2), baseV = i32x4.splat(base);
  let samples = i32x4.splat(0);
  const rowBytes = <usize>stride << 1;
  for (let i = 0; i < height; i++) {
    const r0 = luma + <usize>mirror(i - 2, height) * rowBytes;
    const r1 = luma + <usize>mirror(i - 1, height) * rowBytes;
    const r2 = luma + <usize>i * rowBytes;
    const r3 = luma + <usize>mirror(i + 1, height) * rowBytes;
    const r4 = luma + <usize>mirror(i + 2, height) * rowBytes;
    const o = out + ((<usize>i * <usize>width) << 2);
    for (let j = 0; j < width; j += 4) {
      const p = <usize>j << 1;
      const a2 = v128.load16x4_u(r2 + p);
      samples = v128.or(samples, a2);
      let acc = i32x4.mul(f0, i32x4.add(v128.load16x4_u(r0 + p), v128.load16x4_u(r4 + p)));
      acc = i32x4.add(acc, i32x4.mul(f1, i32x4.add(v128.load16x4_u(r1 + p), v128.load16x4_u(r3 + p))));
      acc = i32x4.add(acc, i32x4.mul(f2, a2));
      v128.store(o + (<usize>j << 2), i32x4.add(acc, baseV));
    }
  }
  // lanes past the width read the next row's samples (or slack): OR-ing them only makes
  // the check stricter, and the slack is zero
  return i32x4.extract_lane(samples, 0) | i32x4.extract_lane(samples, 1) | i32x4.extract_lane(samples, 2) | i32x4.extract_lane(samples, 3);
}

/**
 * blurColumns for 8-bit pictures kept in bytes (the caller's copy is then a plain one),
 * 8 columns a step: the folded rows' sums stay below 2^9, their products with the taps
 * below 2^24. Returns the OR of every sample, like blurColumns.
 */
export function blurColumns8(luma: usize, stride: i32, width: i32, height: i32, base: i32, out: usize): i32 {
  const f0 = i16x8.splat(<i16>F0), f1 = i16x8.splat(<i16>F1), f2 = i16x8.splat(<i16>F2), baseV = i32x4.splat(base);
  let samples = i32x4.splat(0);
  const rowBytes = <usize>stride;
  for (let i = 0; i < height; i++) {
    const r0 = luma + <usize>mirror(i - 2, height) * rowBytes;
    const r1 = luma + <usize>mirror(i - 1, height) * rowBytes;
    const r2 = luma + <usize>i * rowBytes;
    const r3 = luma + <usize>mirror(i + 1, height) * rowBytes;
    const r4 = luma + <usize>mirror(i + 2, height) * rowBytes;
    const o = out + ((<usize>i * <usize>width) << 2);
    for (let j = 0; j < width; j += 8) {
      const p = <usize>j;
      const a2 = v128.load8x8_u(r2 + p);
      samples = v128.or(samples, a2);
      const s04 = i16x8.add(v128.load8x8_u(r0 + p), v128.load8x8_u(r4 + p));
      const s13 = i16x8.add(v128.load8x8_u(r1 + p), v128.load8x8_u(r3 + p));
      const lo = i32x4.add(i32x4.add(i32x4.extmul_low_i16x8_u(f0, s04), i32x4.extmul_low_i16x8_u(f1, s13)), i32x4.extmul_low_i16x8_u(f2, a2));
      const hi = i32x4.add(i32x4.add(i32x4.extmul_high_i16x8_u(f0, s04), i32x4.extmul_high_i16x8_u(f1, s13)), i32x4.extmul_high_i16x8_u(f2, a2));
      v128.store(o + (<usize>j << 2), i32x4.add(lo, baseV));
      v128.store(o + (<usize>j << 2), i32x4.add(hi, baseV), 16);
    }
  }
  // the OR of the 16-bit lanes
  const both = i32x4.extract_lane(samples, 0) | i32x4.extract_lane(samples, 1) | i32x4.extract_lane(samples, 2) | i32x4.extract_lane(samples, 3);
  return (both | (both >>> 16)) & 0xffff;
}

/**
 * motionSad for narrow pictures (samples below 2^15): per row, the rounded vertical
 * differences into `row` (mirrored two samples each side), then the horizontal 5 taps with
 * each tap sum split as (s >> 8, s & 255) to stay in int32, |v| summed in uint32 lanes (a
 * row's sum wraps like libvmaf's uint32_t). Returns Σ rows as a double (exact below 2^53).
 */
export function sadNarrow(prev: usize, cur: usize, width: i32, height: i32, shift: i32, row: usize): f64 {
  const round = i32x4.splat(1 << (shift - 1));
  const f0 = i32x4.splat(F0), f1 = i32x4.splat(F1), f2 = i32x4.splat(F2);
  const low8 = i32x4.splat(255), half = i32x4.splat(32768);
  let sad: f64 = 0;
  for (let i = 0; i < height; i++) {
    const off = (<usize>i * <usize>width) << 2;
    for (let j = 0; j < width; j += 4) {
      const q = <usize>j << 2;
      v128.store(row + q, i32x4.shr_s(i32x4.add(i32x4.sub(v128.load(prev + off + q), v128.load(cur + off + q)), round), shift));
    }
    store<i32>(row - 4, load<i32>(row + 4));
    store<i32>(row - 8, load<i32>(row + 8));
    const last = row + (<usize>(width - 1) << 2);
    store<i32>(last + 4, load<i32>(last - 4));
    store<i32>(last + 8, load<i32>(last - 8));
    let sum = i32x4.splat(0);
    for (let j = 0; j < width; j += 4) {
      const q = row + (<usize>j << 2);
      const s0 = i32x4.add(v128.load(q - 8), v128.load(q + 8));
      const s1 = i32x4.add(v128.load(q - 4), v128.load(q + 4));
      const y2 = v128.load(q);
      const hi = i32x4.add(i32x4.add(i32x4.mul(f0, i32x4.shr_s(s0, 8)), i32x4.mul(f1, i32x4.shr_s(s1, 8))), i32x4.mul(f2, i32x4.shr_s(y2, 8)));
      const lo = i32x4.add(i32x4.add(i32x4.mul(f0, v128.and(s0, low8)), i32x4.mul(f1, v128.and(s1, low8))), i32x4.mul(f2, v128.and(y2, low8)));
      let v = i32x4.abs(i32x4.shr_s(i32x4.add(hi, i32x4.shr_s(i32x4.add(lo, half), 8)), 8));
      // lanes past the width add nothing
      if (j + 4 > width) v = v128.and(v, i32x4.gt_s(i32x4.splat(width - j), i32x4(0, 1, 2, 3)));
      sum = i32x4.add(sum, v);
    }
    const rowSum = <u32>(i32x4.extract_lane(sum, 0) + i32x4.extract_lane(sum, 1) + i32x4.extract_lane(sum, 2) + i32x4.extract_lane(sum, 3));
    sad += <f64>rowSum;
  }
  return sad;
}
