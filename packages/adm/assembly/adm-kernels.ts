// Integer ADM's WebAssembly SIMD kernels, in AssemblyScript (ADR 0040). They compute what
// src/numerics/dwt2.ts, decouple.ts, csf-bands.ts, csf-den.ts and contrast-masking.ts
// compute, bit for bit: those stay the readable specification, and the tests hold the two
// paths to each other and to libvmaf. Built by tools/build-wasm.ts into
// src/cpu/wasm/adm-kernels.wasm.ts.
//
// libvmaf's fixed point is int32 and int64 arithmetic with wrap-around; WebAssembly's i32
// and i64 are exactly that, so where the reference proves a double exact (or recomputes
// with BigInt) these kernels just use the integer type, and C's (float) and (double) of an
// int64 are f32.convert_i64_s and f64.convert_i64_s (one rounding, to nearest even).
//
// Memory is laid out by the caller (src/cpu/adm-wasm.ts) like src/cpu/adm-buffers.ts: the
// bands of one kind (a, h, v, d or h, v, d) lie `bandBytes` apart, all with the stride of
// scale 0's bands; every pointer is a byte address. SIMD steps only write what the
// reference writes (scalar code finishes each row), and read at most 32 bytes past a row,
// into the next row or the slack the caller leaves after each buffer. The DWT's temporary
// rows are the reference's tmp buffer, byte for byte: libvmaf's x86 kernels read past a row
// into it (dwt2.ts, vectorOvershoots), so what lies there must be what the reference has.

// lo = {15826, 27411, 7345, -4240}, hi = {-4240, -7345, 27411, -15826} (Q15), as i16 pairs
// for i32x4.dot_i16x8_s: taps 0 and 1 on (x[2j-1], x[2j]), taps 2 and 3 on (x[2j+1], x[2j+2])
const LO01: v128 = i16x8(15826, 27411, 15826, 27411, 15826, 27411, 15826, 27411);
const LO23: v128 = i16x8(7345, -4240, 7345, -4240, 7345, -4240, 7345, -4240);
const HI01: v128 = i16x8(-4240, -7345, -4240, -7345, -4240, -7345, -4240, -7345);
const HI23: v128 = i16x8(27411, -15826, 27411, -15826, 27411, -15826, 27411, -15826);

/** Where the caller may start laying out its buffers. */
export function heapBase(): usize {
  return __heap_base;
}

// ---------------------------------------------------------------------------------------
// DWT (dwt2.ts)

/** Source row (or column) of tap k of an input of length n: -1 mirrors to 1, n + m to n - 1 - m. */
@inline
function mirror(k: i32, n: i32): i32 {
  if (k < 0) return 1;
  return k >= n ? 2 * n - k - 1 : k;
}

/** The low 16 bits of the eight i32 lanes of a and b (C's int16 conversion, wrapping). */
@inline
function wrap16(a: v128, b: v128): v128 {
  return i8x16.shuffle(a, b, 0, 1, 4, 5, 8, 9, 12, 13, 16, 17, 20, 21, 24, 25, 28, 29);
}

/** The low 32 bits of the four i64 lanes of a and b (C's int32 conversion, wrapping). */
@inline
function wrap32(a: v128, b: v128): v128 {
  return i32x4.shuffle(a, b, 0, 2, 4, 6);
}

@inline
function sample(src: usize, index: i32, wide: bool): i32 {
  return wide ? <i32>load<u16>(src + (<usize>index << 1)) : <i32>load<u8>(src + <usize>index);
}

/**
 * Scale 0's vertical pass of one output row into tmp (int16 lo at 0, hi at w; lo only when
 * lowOnly): (Σ taps * samples - centre) >> shift and (Σ + round) >> shift in i32, which
 * wraps where the reference's `>>` does (only 16-bit input passes 2^31). Eight columns a
 * step for samples below 2^15, read as i16 pairs: each pair's products and their sum stay
 * below 2^31 (50582 * 2^15), so the dot products are exact before the wrapping adds.
 */
function vertical0(src: usize, r0: i32, r1: i32, r2: i32, r3: i32, w: i32, wide: bool, vector: bool, shift: u32, round: i32, centre: i32, tmp: usize, lowOnly: bool): void {
  let j = 0;
  if (vector) {
    const centreV = i32x4.splat(centre);
    const roundV = i32x4.splat(round);
    for (; j + 8 <= w; j += 8) {
      let s0: v128, s1: v128, s2: v128, s3: v128;
      if (wide) {
        s0 = v128.load(src + (<usize>(r0 + j) << 1));
        s1 = v128.load(src + (<usize>(r1 + j) << 1));
        s2 = v128.load(src + (<usize>(r2 + j) << 1));
        s3 = v128.load(src + (<usize>(r3 + j) << 1));
      } else {
        s0 = v128.load8x8_u(src + <usize>(r0 + j));
        s1 = v128.load8x8_u(src + <usize>(r1 + j));
        s2 = v128.load8x8_u(src + <usize>(r2 + j));
        s3 = v128.load8x8_u(src + <usize>(r3 + j));
      }
      const p01l = i16x8.shuffle(s0, s1, 0, 8, 1, 9, 2, 10, 3, 11);
      const p01h = i16x8.shuffle(s0, s1, 4, 12, 5, 13, 6, 14, 7, 15);
      const p23l = i16x8.shuffle(s2, s3, 0, 8, 1, 9, 2, 10, 3, 11);
      const p23h = i16x8.shuffle(s2, s3, 4, 12, 5, 13, 6, 14, 7, 15);
      const loL = i32x4.shr_s(i32x4.sub(i32x4.add(i32x4.dot_i16x8_s(p01l, LO01), i32x4.dot_i16x8_s(p23l, LO23)), centreV), shift);
      const loH = i32x4.shr_s(i32x4.sub(i32x4.add(i32x4.dot_i16x8_s(p01h, LO01), i32x4.dot_i16x8_s(p23h, LO23)), centreV), shift);
      v128.store(tmp + (<usize>j << 1), wrap16(loL, loH));
      if (lowOnly) continue;
      const hiL = i32x4.shr_s(i32x4.add(i32x4.add(i32x4.dot_i16x8_s(p01l, HI01), i32x4.dot_i16x8_s(p23l, HI23)), roundV), shift);
      const hiH = i32x4.shr_s(i32x4.add(i32x4.add(i32x4.dot_i16x8_s(p01h, HI01), i32x4.dot_i16x8_s(p23h, HI23)), roundV), shift);
      v128.store(tmp + (<usize>(w + j) << 1), wrap16(hiL, hiH));
    }
  }
  for (; j < w; j++) {
    const s0 = sample(src, r0 + j, wide);
    const s1 = sample(src, r1 + j, wide);
    const s2 = sample(src, r2 + j, wide);
    const s3 = sample(src, r3 + j, wide);
    store<i16>(tmp + (<usize>j << 1), <i16>((15826 * s0 + 27411 * s1 + 7345 * s2 - 4240 * s3 - centre) >> shift));
    if (!lowOnly) store<i16>(tmp + (<usize>(w + j) << 1), <i16>((-4240 * s0 - 7345 * s1 + 27411 * s2 - 15826 * s3 + round) >> shift));
  }
}

/** One int16 output pair from int16 taps at row + 2k: (Σ + 2^15) >> 16, every sum below 2^31 (54822 * 2^15). */
@inline
function edge16(row: usize, k0: i32, k1: i32, k2: i32, k3: i32, low: usize, high: usize, lowOnly: bool): void {
  const s0 = <i32>load<i16>(row + (<usize>k0 << 1));
  const s1 = <i32>load<i16>(row + (<usize>k1 << 1));
  const s2 = <i32>load<i16>(row + (<usize>k2 << 1));
  const s3 = <i32>load<i16>(row + (<usize>k3 << 1));
  store<i16>(low, <i16>((15826 * s0 + 27411 * s1 + 7345 * s2 - 4240 * s3 + 32768) >> 16));
  if (!lowOnly) store<i16>(high, <i16>((-4240 * s0 - 7345 * s1 + 27411 * s2 - 15826 * s3 + 32768) >> 16));
}

/**
 * Scale 0's horizontal pass of one int16 temporary row into a low and a high band row
 * (byte addresses of output 0): the first and last two outputs with mirrored taps (the
 * last one unmirrored when libvmaf's vector chunk overshoots), the interior eight outputs
 * a step as dot products of i16 pairs (x[2j-1], x[2j]) and (x[2j+1], x[2j+2]).
 */
function horizontal0(row: usize, w: i32, low: usize, high: usize, overshoot: bool, lowOnly: bool): void {
  const halfW = (w + 1) >> 1;
  const interiorEnd = halfW - 2;
  const round = i32x4.splat(32768);
  edge16(row, 1, 0, 1, 2, low, high, lowOnly);
  let j = 1;
  for (; j + 8 <= interiorEnd; j += 8) {
    const p = row + (<usize>(2 * j - 1) << 1);
    const a = v128.load(p);
    const b = v128.load(p + 4);
    const c = v128.load(p + 16);
    const d = v128.load(p + 20);
    const o = <usize>j << 1;
    const lo1 = i32x4.shr_s(i32x4.add(i32x4.add(i32x4.dot_i16x8_s(a, LO01), i32x4.dot_i16x8_s(b, LO23)), round), 16);
    const lo2 = i32x4.shr_s(i32x4.add(i32x4.add(i32x4.dot_i16x8_s(c, LO01), i32x4.dot_i16x8_s(d, LO23)), round), 16);
    v128.store(low + o, wrap16(lo1, lo2));
    if (lowOnly) continue;
    const hi1 = i32x4.shr_s(i32x4.add(i32x4.add(i32x4.dot_i16x8_s(a, HI01), i32x4.dot_i16x8_s(b, HI23)), round), 16);
    const hi2 = i32x4.shr_s(i32x4.add(i32x4.add(i32x4.dot_i16x8_s(c, HI01), i32x4.dot_i16x8_s(d, HI23)), round), 16);
    v128.store(high + o, wrap16(hi1, hi2));
  }
  for (; j < interiorEnd; j++) edge16(row, 2 * j - 1, 2 * j, 2 * j + 1, 2 * j + 2, low + (<usize>j << 1), high + (<usize>j << 1), lowOnly);
  let k = halfW - 2;
  edge16(row, mirror(2 * k - 1, w), mirror(2 * k, w), mirror(2 * k + 1, w), mirror(2 * k + 2, w), low + (<usize>k << 1), high + (<usize>k << 1), lowOnly);
  k = halfW - 1;
  const at = <usize>k << 1;
  if (overshoot) edge16(row, 2 * k - 1, 2 * k, 2 * k + 1, 2 * k + 2, low + at, high + at, lowOnly);
  else edge16(row, mirror(2 * k - 1, w), mirror(2 * k, w), mirror(2 * k + 1, w), mirror(2 * k + 2, w), low + at, high + at, lowOnly);
}

/**
 * Scale 0 (dwt2Scale0): a u8 (or, wide, u16) plane of w x h samples, stride w, to the int16
 * bands a, h, v, d at out + k * bandBytes (a only when lowOnly). vector: samples below 2^15.
 */
export function dwtScale0(
  src: usize, wide: bool, vector: bool, w: i32, h: i32, shift: u32, round: i32, centre: i32,
  out: usize, bandBytes: usize, outStride: i32, tmp: usize, overshoot: bool, lowOnly: bool,
): void {
  const halfH = (h + 1) >> 1;
  const a = out;
  const hb = out + bandBytes;
  const v = out + 2 * bandBytes;
  const d = out + 3 * bandBytes;
  const hiRow = tmp + (<usize>w << 1);
  for (let i = 0; i < halfH; i++) {
    vertical0(src, mirror(2 * i - 1, h) * w, mirror(2 * i, h) * w, mirror(2 * i + 1, h) * w, mirror(2 * i + 2, h) * w, w, wide, vector, shift, round, centre, tmp, lowOnly);
    const o = <usize>(i * outStride) << 1;
    horizontal0(tmp, w, a + o, v + o, overshoot, lowOnly);
    if (!lowOnly) horizontal0(hiRow, w, hb + o, d + o, overshoot, false);
  }
}

/**
 * Scale 1's vertical pass: an int16 band's rows to int32 lo and hi rows with no shift, the
 * exact sums (below 2^31: 54822 * 2^15) as dot products of i16 pairs, eight columns a step.
 */
function vertical1(src: usize, r0: usize, r1: usize, r2: usize, r3: usize, w: i32, lo: usize, hi: usize): void {
  let j = 0;
  for (; j + 8 <= w; j += 8) {
    const o = <usize>j << 1;
    const s0 = v128.load(src + r0 + o);
    const s1 = v128.load(src + r1 + o);
    const s2 = v128.load(src + r2 + o);
    const s3 = v128.load(src + r3 + o);
    const p01l = i16x8.shuffle(s0, s1, 0, 8, 1, 9, 2, 10, 3, 11);
    const p01h = i16x8.shuffle(s0, s1, 4, 12, 5, 13, 6, 14, 7, 15);
    const p23l = i16x8.shuffle(s2, s3, 0, 8, 1, 9, 2, 10, 3, 11);
    const p23h = i16x8.shuffle(s2, s3, 4, 12, 5, 13, 6, 14, 7, 15);
    const q = <usize>j << 2;
    v128.store(lo + q, i32x4.add(i32x4.dot_i16x8_s(p01l, LO01), i32x4.dot_i16x8_s(p23l, LO23)));
    v128.store(lo + q, i32x4.add(i32x4.dot_i16x8_s(p01h, LO01), i32x4.dot_i16x8_s(p23h, LO23)), 16);
    v128.store(hi + q, i32x4.add(i32x4.dot_i16x8_s(p01l, HI01), i32x4.dot_i16x8_s(p23l, HI23)));
    v128.store(hi + q, i32x4.add(i32x4.dot_i16x8_s(p01h, HI01), i32x4.dot_i16x8_s(p23h, HI23)), 16);
  }
  for (; j < w; j++) {
    const o = <usize>j << 1;
    const s0 = <i32>load<i16>(src + r0 + o);
    const s1 = <i32>load<i16>(src + r1 + o);
    const s2 = <i32>load<i16>(src + r2 + o);
    const s3 = <i32>load<i16>(src + r3 + o);
    store<i32>(lo + (<usize>j << 2), 15826 * s0 + 27411 * s1 + 7345 * s2 - 4240 * s3);
    store<i32>(hi + (<usize>j << 2), -4240 * s0 - 7345 * s1 + 27411 * s2 - 15826 * s3);
  }
}

/** Σ taps * s of four i32x4 rows in i64 lanes (below 2^47), (Σ + round) >> shift, wrapped to i32 lanes. */
@inline
function taps64(s0: v128, s1: v128, s2: v128, s3: v128, t0: i32, t1: i32, t2: i32, t3: i32, round: v128, shift: u32): v128 {
  const c0 = i32x4.splat(t0), c1 = i32x4.splat(t1), c2 = i32x4.splat(t2), c3 = i32x4.splat(t3);
  let l = i64x2.add(i64x2.add(i64x2.extmul_low_i32x4_s(s0, c0), i64x2.extmul_low_i32x4_s(s1, c1)), i64x2.add(i64x2.extmul_low_i32x4_s(s2, c2), i64x2.extmul_low_i32x4_s(s3, c3)));
  let h = i64x2.add(i64x2.add(i64x2.extmul_high_i32x4_s(s0, c0), i64x2.extmul_high_i32x4_s(s1, c1)), i64x2.add(i64x2.extmul_high_i32x4_s(s2, c2), i64x2.extmul_high_i32x4_s(s3, c3)));
  l = i64x2.shr_s(i64x2.add(l, round), shift);
  h = i64x2.shr_s(i64x2.add(h, round), shift);
  return wrap32(l, h);
}

/** Scales 2 and 3's vertical pass: int32 rows, int64 sums (below 2^47), (Σ + round) >> shift wrapped to int32. */
function vertical23(src: usize, r0: usize, r1: usize, r2: usize, r3: usize, w: i32, lo: usize, hi: usize, round: i64, shift: u32): void {
  const roundV = i64x2.splat(round);
  let j = 0;
  for (; j + 4 <= w; j += 4) {
    const o = <usize>j << 2;
    const s0 = v128.load(src + r0 + o);
    const s1 = v128.load(src + r1 + o);
    const s2 = v128.load(src + r2 + o);
    const s3 = v128.load(src + r3 + o);
    v128.store(lo + o, taps64(s0, s1, s2, s3, 15826, 27411, 7345, -4240, roundV, shift));
    v128.store(hi + o, taps64(s0, s1, s2, s3, -4240, -7345, 27411, -15826, roundV, shift));
  }
  for (; j < w; j++) {
    const o = <usize>j << 2;
    const s0 = <i64>load<i32>(src + r0 + o);
    const s1 = <i64>load<i32>(src + r1 + o);
    const s2 = <i64>load<i32>(src + r2 + o);
    const s3 = <i64>load<i32>(src + r3 + o);
    store<i32>(lo + o, <i32>((15826 * s0 + 27411 * s1 + 7345 * s2 - 4240 * s3 + round) >> shift));
    store<i32>(hi + o, <i32>((-4240 * s0 - 7345 * s1 + 27411 * s2 - 15826 * s3 + round) >> shift));
  }
}

@inline
function edge32(row: usize, k0: i32, k1: i32, k2: i32, k3: i32, low: usize, high: usize, round: i64, shift: u32): void {
  const s0 = <i64>load<i32>(row + (<usize>k0 << 2));
  const s1 = <i64>load<i32>(row + (<usize>k1 << 2));
  const s2 = <i64>load<i32>(row + (<usize>k2 << 2));
  const s3 = <i64>load<i32>(row + (<usize>k3 << 2));
  store<i32>(low, <i32>((15826 * s0 + 27411 * s1 + 7345 * s2 - 4240 * s3 + round) >> shift));
  store<i32>(high, <i32>((-4240 * s0 - 7345 * s1 + 27411 * s2 - 15826 * s3 + round) >> shift));
}

/** Σ taps * x of four outputs from their taps' lanes (X0 = x[2j-1], X1 = x[2j], X2 = x[2j+1], X3 = x[2j+2]), int32, wrapping. */
@inline
function taps32(x0: v128, x1: v128, x2: v128, x3: v128, t0: i32, t1: i32, t2: i32, t3: i32): v128 {
  return i32x4.add(i32x4.add(i32x4.mul(x0, i32x4.splat(t0)), i32x4.mul(x1, i32x4.splat(t1))), i32x4.add(i32x4.mul(x2, i32x4.splat(t2)), i32x4.mul(x3, i32x4.splat(t3))));
}

/**
 * (Σ taps * x + 2^(s-1)) >> s of four outputs wrapped to int32, in int32 lanes, for s = 15
 * or 16: with x = xh 2^s + xl (0 <= xl < 2^s), it is Σ taps * xh + ((Σ taps * xl +
 * 2^(s-1)) >> s), the first sum needed only mod 2^32 (the store wraps) and the second
 * exact: below 2^31 in magnitude for s = 15 (54822 * 2^15) and for the high-pass taps at
 * s = 16 (27411 * 2^16 each side); the low-pass taps at s = 16 reach 50582 * 2^16, so that
 * sum is taken as uint32 after adding 4240 * 2^16 (its negative tap's most), which the
 * shift turns back into 4240.
 */
@inline
function splitTaps(x0: v128, x1: v128, x2: v128, x3: v128, shift: u32, low: bool): v128 {
  const mask = i32x4.splat((1 << shift) - 1);
  const h0 = i32x4.shr_s(x0, shift), h1 = i32x4.shr_s(x1, shift), h2 = i32x4.shr_s(x2, shift), h3 = i32x4.shr_s(x3, shift);
  const l0 = v128.and(x0, mask), l1 = v128.and(x1, mask), l2 = v128.and(x2, mask), l3 = v128.and(x3, mask);
  const round = i32x4.splat(1 << (shift - 1));
  if (low) {
    const a = taps32(h0, h1, h2, h3, 15826, 27411, 7345, -4240);
    const b = taps32(l0, l1, l2, l3, 15826, 27411, 7345, -4240);
    if (shift == 15) return i32x4.add(a, i32x4.shr_s(i32x4.add(b, round), 15));
    const bias = 4240 << 16;
    return i32x4.add(a, i32x4.sub(i32x4.shr_u(i32x4.add(b, i32x4.splat(bias + (1 << 15))), 16), i32x4.splat(4240)));
  }
  const a = taps32(h0, h1, h2, h3, -4240, -7345, 27411, -15826);
  const b = taps32(l0, l1, l2, l3, -4240, -7345, 27411, -15826);
  return i32x4.add(a, i32x4.shr_s(i32x4.add(b, round), shift));
}

/**
 * Scales 1..3's horizontal pass of one int32 temporary row: as horizontal0, the first and
 * last two outputs in int64 (sums below 2^47); the interior four outputs a step, their
 * taps gathered into four vectors (x[2j-1+2k], x[2j+2k], ...) by shuffles and summed in
 * split int32 lanes (splitTaps) for libvmaf's shifts of 15 and 16.
 */
function horizontal123(row: usize, w: i32, low: usize, high: usize, overshoot: bool, round: i64, shift: u32): void {
  const halfW = (w + 1) >> 1;
  const interiorEnd = halfW - 2;
  edge32(row, 1, 0, 1, 2, low, high, round, shift);
  let j = 1;
  if (shift == 15 || shift == 16) {
    for (; j + 4 <= interiorEnd; j += 4) {
      const p = row + (<usize>(2 * j - 1) << 2);
      const a = v128.load(p);
      const b = v128.load(p, 16);
      const c = v128.load(p, 8);
      const d = v128.load(p, 24);
      const x0 = i32x4.shuffle(a, b, 0, 2, 4, 6);
      const x1 = i32x4.shuffle(a, b, 1, 3, 5, 7);
      const x2 = i32x4.shuffle(c, d, 0, 2, 4, 6);
      const x3 = i32x4.shuffle(c, d, 1, 3, 5, 7);
      const o = <usize>j << 2;
      v128.store(low + o, splitTaps(x0, x1, x2, x3, shift, true));
      v128.store(high + o, splitTaps(x0, x1, x2, x3, shift, false));
    }
  }
  for (; j < interiorEnd; j++) edge32(row, 2 * j - 1, 2 * j, 2 * j + 1, 2 * j + 2, low + (<usize>j << 2), high + (<usize>j << 2), round, shift);
  let k = halfW - 2;
  edge32(row, mirror(2 * k - 1, w), mirror(2 * k, w), mirror(2 * k + 1, w), mirror(2 * k + 2, w), low + (<usize>k << 2), high + (<usize>k << 2), round, shift);
  k = halfW - 1;
  const at = <usize>k << 2;
  if (overshoot) edge32(row, 2 * k - 1, 2 * k, 2 * k + 1, 2 * k + 2, low + at, high + at, round, shift);
  else edge32(row, mirror(2 * k - 1, w), mirror(2 * k, w), mirror(2 * k + 1, w), mirror(2 * k + 2, w), low + at, high + at, round, shift);
}

/**
 * Scales 1..3 (dwt2Scale123), reference and distorted together: the previous scale's a
 * bands (int16 at scale 1, src16; int32 after), w x h, to int32 bands a, h, v, d at
 * outRef/outDis + k * bandBytes. tmp holds [lo ref | hi ref | lo dis | hi dis] rows of w
 * int32. The a band may be the source: row i is written after every row it needs is read.
 */
export function dwtScale123(
  srcRef: usize, srcDis: usize, src16: bool, w: i32, h: i32, stride: i32,
  vRound: i32, vShift: u32, hRound: i32, hShift: u32,
  outRef: usize, outDis: usize, bandBytes: usize, tmp: usize, overshoot: bool,
): void {
  const halfH = (h + 1) >> 1;
  const rowBytes = <usize>stride << (src16 ? 1 : 2);
  const t0 = tmp;
  const t1 = tmp + (<usize>w << 2);
  const t2 = tmp + (<usize>w << 3);
  const t3 = tmp + (<usize>w << 2) * 3;
  for (let i = 0; i < halfH; i++) {
    const r0 = <usize>mirror(2 * i - 1, h) * rowBytes;
    const r1 = <usize>mirror(2 * i, h) * rowBytes;
    const r2 = <usize>mirror(2 * i + 1, h) * rowBytes;
    const r3 = <usize>mirror(2 * i + 2, h) * rowBytes;
    if (src16) {
      vertical1(srcRef, r0, r1, r2, r3, w, t0, t1);
      vertical1(srcDis, r0, r1, r2, r3, w, t2, t3);
    } else {
      vertical23(srcRef, r0, r1, r2, r3, w, t0, t1, <i64>vRound, vShift);
      vertical23(srcDis, r0, r1, r2, r3, w, t2, t3, <i64>vRound, vShift);
    }
    const o = <usize>(i * stride) << 2;
    horizontal123(t0, w, outRef + o, outRef + 2 * bandBytes + o, overshoot, <i64>hRound, hShift);
    horizontal123(t1, w, outRef + bandBytes + o, outRef + 3 * bandBytes + o, overshoot, <i64>hRound, hShift);
    horizontal123(t2, w, outDis + o, outDis + 2 * bandBytes + o, overshoot, <i64>hRound, hShift);
    horizontal123(t3, w, outDis + bandBytes + o, outDis + 3 * bandBytes + o, overshoot, <i64>hRound, hShift);
  }
}

// ---------------------------------------------------------------------------------------
// Decoupling (decouple.ts)

/**
 * libvmaf's 1-degree test: u.v >= 0 and (u.v / 4096)^2 >= cos^2(1deg) (|u|^2 / 4096)
 * (|v|^2 / 4096), each int64 (wrapping) rounded to float once, the rest in double.
 * Without branches: the data decides them at random.
 */
@inline
function angleMatches(oh: i64, ov: i64, th: i64, tv: i64, cosSq: f64): bool {
  const dp = oh * th + ov * tv;
  const dot = <f64><f32>dp / 4096.0;
  const o = <f64><f32>(oh * oh + ov * ov) / 4096.0;
  const t = <f64><f32>(th * th + tv * tv) / 4096.0;
  return (dp >= 0) & (dot * dot >= cosSq * o * t);
}

/**
 * Where the angle matched (and k, o are not 0): MIN(rst * gain, t) for o > 0, MAX for
 * o < 0, truncated (decouple.ts's restore). The value selected is between t and rst * gain
 * on rst's side of 0, so it is an int32 before the truncation. An integer gain (below
 * 2^16) multiplies in i64, exactly the double product, and needs no conversions.
 */
@inline
function restore(o: i32, t: i32, k: i32, angle: bool, gain: f64, integerGain: bool, rst: i32): i32 {
  let r: i32;
  if (integerGain) {
    const boosted = <i64>rst * <i64>gain;
    r = <i32>select<i64>(min(boosted, <i64>t), max(boosted, <i64>t), o > 0);
  } else {
    const boosted = <f64>rst * gain;
    r = <i32>select<f64>(min(boosted, <f64>t), max(boosted, <f64>t), o > 0);
  }
  return select<i32>(r, rst, angle & (k != 0) & (o != 0));
}

@inline
function ratio16(o: i32, t: i32, div: usize): i32 {
  const k = <i32>((<i64>load<i32>(div + (<usize>(o + 32768) << 2)) * <i64>t + 16384) >> 15);
  return min(max(k, 0), 32768);
}

/** div[o + 32768] for the four int32 lanes of o (in [-32768, 32768]). */
@inline
function gatherDiv(o: v128, div: usize): v128 {
  let d = i32x4.splat(load<i32>(div + (<usize>(i32x4.extract_lane(o, 0) + 32768) << 2)));
  d = i32x4.replace_lane(d, 1, load<i32>(div + (<usize>(i32x4.extract_lane(o, 1) + 32768) << 2)));
  d = i32x4.replace_lane(d, 2, load<i32>(div + (<usize>(i32x4.extract_lane(o, 2) + 32768) << 2)));
  return i32x4.replace_lane(d, 3, load<i32>(div + (<usize>(i32x4.extract_lane(o, 3) + 32768) << 2)));
}

/**
 * ratio16 of four int16 pairs in i32 lanes: div = hi 2^15 + lo (0 <= lo < 2^15) and
 * (div t + 2^14) >> 15 = hi t + ((lo t + 2^14) >> 15), every product below 2^30 in magnitude.
 */
@inline
function ratio16x4(o: v128, t: v128, div: usize): v128 {
  const d = gatherDiv(o, div);
  const k = i32x4.add(i32x4.mul(i32x4.shr_s(d, 15), t), i32x4.shr_s(i32x4.add(i32x4.mul(v128.and(d, i32x4.splat(0x7fff)), t), i32x4.splat(16384)), 15));
  return i32x4.min_s(i32x4.max_s(k, i32x4.splat(0)), i32x4.splat(32768));
}

/** Two lanes of restore's boosted value in double: MIN(rst * gain, t) for o > 0, else MAX, truncated, in lanes 0 and 1. */
@inline
function boost2(rst: v128, t: v128, positive: v128, gain: v128): v128 {
  const b = f64x2.mul(f64x2.convert_low_i32x4_s(rst), gain);
  const tf = f64x2.convert_low_i32x4_s(t);
  return i32x4.trunc_sat_f64x2_s_zero(v128.bitselect(f64x2.min(b, tf), f64x2.max(b, tf), i64x2.extend_low_i32x4_s(positive)));
}

/**
 * restore for four i32 lanes (|rst| <= 2^15). An integer gain (below 2^16) boosts in i32,
 * exactly the double product; any other gain in f64x2, as the reference.
 */
@inline
function restore4(o: v128, t: v128, k: v128, angle: v128, gain: f64, integerGain: bool): v128 {
  const zero = i32x4.splat(0);
  const rst = i32x4.shr_s(i32x4.add(i32x4.mul(k, o), i32x4.splat(16384)), 15);
  const positive = i32x4.gt_s(o, zero);
  let boosted: v128;
  if (integerGain) {
    const b = i32x4.mul(rst, i32x4.splat(<i32>gain));
    boosted = v128.bitselect(i32x4.min_s(b, t), i32x4.max_s(b, t), positive);
  } else {
    const g = f64x2.splat(gain);
    const high = i32x4.shuffle(rst, rst, 2, 3, 2, 3);
    boosted = i32x4.shuffle(boost2(rst, t, positive, g), boost2(high, i32x4.shuffle(t, t, 2, 3, 2, 3), i32x4.shuffle(positive, positive, 2, 3, 2, 3), g), 0, 1, 4, 5);
  }
  const apply = v128.andnot(v128.andnot(angle, i32x4.eq(k, zero)), i32x4.eq(o, zero));
  return v128.bitselect(boosted, rst, apply);
}

/** Two lanes of the angle test from float lanes 0 and 1 of dot, |o|^2 and |t|^2, as i64x2 masks. */
@inline
function angle2(dp: v128, om: v128, tm: v128, cosSq: v128): v128 {
  const scale = f64x2.splat(1.0 / 4096.0);
  const d = f64x2.mul(f64x2.promote_low_f32x4(dp), scale);
  const o = f64x2.mul(f64x2.promote_low_f32x4(om), scale);
  const t = f64x2.mul(f64x2.promote_low_f32x4(tm), scale);
  return f64x2.ge(f64x2.mul(d, d), f64x2.mul(f64x2.mul(cosSq, o), t));
}

/**
 * The angle test for four int16 pairs in i32 lanes: each product is below 2^30 in
 * magnitude, and a sum wraps only at +2^31 (two products of -2^15 * -2^15), which reads
 * as INT_MIN and converts as uint32 to 2^31; negative dot products fail.
 */
@inline
function angle4(oh: v128, ov: v128, th: v128, tv: v128, cosSq: v128): v128 {
  const dp = i32x4.add(i32x4.mul(oh, th), i32x4.mul(ov, tv));
  const om = i32x4.add(i32x4.mul(oh, oh), i32x4.mul(ov, ov));
  const tm = i32x4.add(i32x4.mul(th, th), i32x4.mul(tv, tv));
  const ok = v128.or(i32x4.ge_s(dp, i32x4.splat(0)), i32x4.eq(dp, i32x4.splat(-2147483648)));
  const dpF = f32x4.convert_i32x4_u(dp);
  const omF = f32x4.convert_i32x4_u(om);
  const tmF = f32x4.convert_i32x4_u(tm);
  const m01 = angle2(dpF, omF, tmF, cosSq);
  const m23 = angle2(f32x4.shuffle(dpF, dpF, 2, 3, 2, 3), f32x4.shuffle(omF, omF, 2, 3, 2, 3), f32x4.shuffle(tmF, tmF, 2, 3, 2, 3), cosSq);
  return v128.and(i32x4.shuffle(m01, m23, 0, 2, 4, 6), ok);
}

/** Four coefficients (int16 in i32 lanes) of scale 0: the restored value (additive = t - restored). */
@inline
function decouple4(o: v128, t: v128, angle: v128, gain: f64, integerGain: bool, div: usize): v128 {
  return restore4(o, t, ratio16x4(o, t, div), angle, gain, integerGain);
}

/**
 * Scale 0 over the region's rows [top, bottom) and columns [left, right): int16 bands h,
 * v, d of ref and dis (bandBytes apart, after a) to restored and additive int16 bands. The
 * ratio is (div[o] * t + 2^14) >> 15 clamped to [0, 2^15] (|div * t| below 2^45), the
 * restored value (k * o + 2^14) >> 15 (below 2^30 in magnitude); stores wrap to int16.
 * Four coefficients a step in i32 lanes (eight measured slower: more live vectors).
 */
export function decoupleScale0(
  ref: usize, dis: usize, restored: usize, additive: usize, bandBytes: usize, stride: i32,
  left: i32, top: i32, right: i32, bottom: i32, gain: f64, integerGain: bool, div: usize, cosSq: f64,
): void {
  const cos = f64x2.splat(cosSq);
  for (let i = top; i < bottom; i++) {
    let x = i * stride + left;
    const end = i * stride + right;
    for (; x + 4 <= end; x += 4) {
      const p = <usize>x << 1;
      const oh = v128.load16x4_s(ref + bandBytes + p);
      const ov = v128.load16x4_s(ref + 2 * bandBytes + p);
      const th = v128.load16x4_s(dis + bandBytes + p);
      const tv = v128.load16x4_s(dis + 2 * bandBytes + p);
      const angle = angle4(oh, ov, th, tv, cos);
      const rh = decouple4(oh, th, angle, gain, integerGain, div);
      v128.store64_lane(restored + p, wrap16(rh, rh), 0);
      v128.store64_lane(additive + p, wrap16(i32x4.sub(th, rh), th), 0);
      const rv = decouple4(ov, tv, angle, gain, integerGain, div);
      v128.store64_lane(restored + bandBytes + p, wrap16(rv, rv), 0);
      v128.store64_lane(additive + bandBytes + p, wrap16(i32x4.sub(tv, rv), tv), 0);
      const od = v128.load16x4_s(ref + 3 * bandBytes + p);
      const td = v128.load16x4_s(dis + 3 * bandBytes + p);
      const rd = decouple4(od, td, angle, gain, integerGain, div);
      v128.store64_lane(restored + 2 * bandBytes + p, wrap16(rd, rd), 0);
      v128.store64_lane(additive + 2 * bandBytes + p, wrap16(i32x4.sub(td, rd), td), 0);
    }
    for (; x < end; x++) {
      const p = <usize>x << 1;
      const oh = <i32>load<i16>(ref + bandBytes + p);
      const ov = <i32>load<i16>(ref + 2 * bandBytes + p);
      const od = <i32>load<i16>(ref + 3 * bandBytes + p);
      const th = <i32>load<i16>(dis + bandBytes + p);
      const tv = <i32>load<i16>(dis + 2 * bandBytes + p);
      const td = <i32>load<i16>(dis + 3 * bandBytes + p);
      const angle = angleMatches(oh, ov, th, tv, cosSq);
      const kh = ratio16(oh, th, div);
      const kv = ratio16(ov, tv, div);
      const kd = ratio16(od, td, div);
      const rh = restore(oh, th, kh, angle, gain, integerGain, (kh * oh + 16384) >> 15);
      const rv = restore(ov, tv, kv, angle, gain, integerGain, (kv * ov + 16384) >> 15);
      const rd = restore(od, td, kd, angle, gain, integerGain, (kd * od + 16384) >> 15);
      store<i16>(restored + p, <i16>rh);
      store<i16>(restored + bandBytes + p, <i16>rv);
      store<i16>(restored + 2 * bandBytes + p, <i16>rd);
      store<i16>(additive + p, <i16>(th - rh));
      store<i16>(additive + bandBytes + p, <i16>(tv - rv));
      store<i16>(additive + 2 * bandBytes + p, <i16>(td - rd));
    }
  }
}

/**
 * ratio32: 0 where o or t is 0 or their signs differ (the clamp's result, and o = 0
 * restores 0); else |o| rounded to its top 15 bits (get_best15_from32), div of it times
 * |t| (below 2^61) rounded by 2^(14 + shift) (INT_MIN for shift 17, as libvmaf's int) and
 * shifted by 15 + shift, clamped to [0, 2^15]. Selects, not branches.
 */
@inline
function ratio32(o: i32, t: i32, div: usize): i32 {
  const magnitude = <u32>abs(o); // abs(INT_MIN) read as uint32 is 2^31
  const shift = max(17 - <i32>clz(magnitude), 0);
  const top15 = (magnitude + ((<u32>1 << shift) >> 1)) >> shift;
  const product = <i64>load<i32>(div + (<usize>(top15 + 32768) << 2)) * <i64><u32>abs(t);
  const round = select<i64>(-2147483648, <i64>1 << (14 + shift), shift == 17);
  const k = <i32>min(max((product + round) >> (15 + shift), 0), 32768);
  return select<i32>(k, 0, (o != 0) & (t != 0) & ((o ^ t) >= 0));
}

/** Scales 1..3: int32 bands, as decoupleScale0 (restored (k * o + 2^14) >> 15 in i64, |k * o| below 2^46). */
export function decoupleInt32(
  ref: usize, dis: usize, restored: usize, additive: usize, bandBytes: usize, stride: i32,
  left: i32, top: i32, right: i32, bottom: i32, gain: f64, integerGain: bool, div: usize, cosSq: f64,
): void {
  for (let i = top; i < bottom; i++) {
    for (let x = i * stride + left, end = i * stride + right; x < end; x++) {
      const p = <usize>x << 2;
      const oh = load<i32>(ref + bandBytes + p);
      const ov = load<i32>(ref + 2 * bandBytes + p);
      const od = load<i32>(ref + 3 * bandBytes + p);
      const th = load<i32>(dis + bandBytes + p);
      const tv = load<i32>(dis + 2 * bandBytes + p);
      const td = load<i32>(dis + 3 * bandBytes + p);
      const angle = angleMatches(oh, ov, th, tv, cosSq);
      const kh = ratio32(oh, th, div);
      const kv = ratio32(ov, tv, div);
      const kd = ratio32(od, td, div);
      const rh = restore(oh, th, kh, angle, gain, integerGain, <i32>((<i64>kh * oh + 16384) >> 15));
      const rv = restore(ov, tv, kv, angle, gain, integerGain, <i32>((<i64>kv * ov + 16384) >> 15));
      const rd = restore(od, td, kd, angle, gain, integerGain, <i32>((<i64>kd * od + 16384) >> 15));
      store<i32>(restored + p, rh);
      store<i32>(restored + bandBytes + p, rv);
      store<i32>(restored + 2 * bandBytes + p, rd);
      store<i32>(additive + p, th - rh);
      store<i32>(additive + bandBytes + p, tv - rv);
      store<i32>(additive + 2 * bandBytes + p, td - rd);
    }
  }
}

// ---------------------------------------------------------------------------------------
// CSF weighting of the masker bands (csf-bands.ts)

/** |csf| / 30 (Q17 4369) or / 15 (Q12 8738) with libvmaf's rounding, as int16 (|csf| <= 2^15: products below 2^29). */
@inline
function scaled16(magnitude: v128, c: i32): v128 {
  const v = i32x4.shr_s(i32x4.add(i32x4.mul(magnitude, i32x4.splat(c)), i32x4.splat(2048)), 12);
  return i32x4.shr_s(i32x4.shl(v, 16), 16);
}

/** (int16)((weight * s + round) >> shift): uint16 weight times int16 s stays below 2^31. */
@inline
function csf16(s: v128, weight: i32, round: i32, shift: u32): v128 {
  const v = i32x4.shr_s(i32x4.add(i32x4.mul(s, i32x4.splat(weight)), i32x4.splat(round)), shift);
  return i32x4.shr_s(i32x4.shl(v, 16), 16);
}

/**
 * Scale 0: the masker's CSF values (h, v with Q21 weights >> 15, d with Q23 >> 17 rounded
 * by 65535, as libvmaf) into flt = Σ |csf| / 30 and centre = Σ |csf| / 15 (int32), four
 * coefficients a step.
 */
export function csfMaskerScale0(
  src: usize, bandBytes: usize, wh: i32, wv: i32, wd: i32, stride: i32,
  left: i32, top: i32, right: i32, bottom: i32, flt: usize, centre: usize,
): void {
  for (let i = top; i < bottom; i++) {
    let x = i * stride + left;
    const end = i * stride + right;
    for (; x + 4 <= end; x += 4) {
      const p = <usize>x << 1;
      const ch = i32x4.abs(csf16(v128.load16x4_s(src + p), wh, 16384, 15));
      const cv = i32x4.abs(csf16(v128.load16x4_s(src + bandBytes + p), wv, 16384, 15));
      const cd = i32x4.abs(csf16(v128.load16x4_s(src + 2 * bandBytes + p), wd, 65535, 17));
      const q = <usize>x << 2;
      v128.store(flt + q, i32x4.add(i32x4.add(scaled16(ch, 4369), scaled16(cv, 4369)), scaled16(cd, 4369)));
      v128.store(centre + q, i32x4.add(i32x4.add(scaled16(ch, 8738), scaled16(cv, 8738)), scaled16(cd, 8738)));
    }
    for (; x < end; x++) {
      const p = <usize>x << 1;
      const ch = abs(<i32><i16>((wh * <i32>load<i16>(src + p) + 16384) >> 15));
      const cv = abs(<i32><i16>((wv * <i32>load<i16>(src + bandBytes + p) + 16384) >> 15));
      const cd = abs(<i32><i16>((wd * <i32>load<i16>(src + 2 * bandBytes + p) + 65535) >> 17));
      const q = <usize>x << 2;
      store<i32>(flt + q, <i32><i16>((4369 * ch + 2048) >> 12) + <i32><i16>((4369 * cv + 2048) >> 12) + <i32><i16>((4369 * cd + 2048) >> 12));
      store<i32>(centre + q, <i32><i16>((8738 * ch + 2048) >> 12) + <i32><i16>((8738 * cv + 2048) >> 12) + <i32><i16>((8738 * cd + 2048) >> 12));
    }
  }
}

/**
 * (int32)((weight * v + 2^27) >> 28) of four int32 v and a uint32 Q32 weight: the exact
 * product (below 2^63 in magnitude) is the signed one of v and the weight read as int32,
 * plus v * 2^32 when the weight is 2^31 or more (`high`); bits 28..59 of the rounded sum
 * are the high words after a shift left by 4.
 */
@inline
function weightQ32(v: v128, weight: v128, high: bool): v128 {
  const round = i64x2.splat(134217728);
  let l = i64x2.extmul_low_i32x4_s(v, weight);
  let h = i64x2.extmul_high_i32x4_s(v, weight);
  if (high) {
    l = i64x2.add(l, i64x2.shl(i64x2.extend_low_i32x4_s(v), 32));
    h = i64x2.add(h, i64x2.shl(i64x2.extend_high_i32x4_s(v), 32));
  }
  return i32x4.shuffle(i64x2.shl(i64x2.add(l, round), 4), i64x2.shl(i64x2.add(h, round), 4), 1, 3, 5, 7);
}

/** (int32)((c * abs(v) - 2^31) >> 32) for c < 2^29, abs wrapping as C's (INT_MIN stays negative): the high words. */
@inline
function scaledQ32(magnitude: v128, c: v128): v128 {
  const round = i64x2.splat(-2147483648);
  return i32x4.shuffle(i64x2.add(i64x2.extmul_low_i32x4_s(magnitude, c), round), i64x2.add(i64x2.extmul_high_i32x4_s(magnitude, c), round), 1, 3, 5, 7);
}

/**
 * Scales 1..3: the CSF-weighted int32 bands (uint32 Q32 weights) into csf, and flt and
 * centre (Σ |csf| / 30 and / 15 in Q32, wrapping int32 sums), four coefficients a step.
 */
export function csfMaskerInt32(
  src: usize, bandBytes: usize, wh: u32, wv: u32, wd: u32, stride: i32,
  left: i32, top: i32, right: i32, bottom: i32, csf: usize, flt: usize, centre: usize,
): void {
  const weightH = i32x4.splat(wh);
  const weightV = i32x4.splat(wv);
  const weightD = i32x4.splat(wd);
  const highH = wh >= 0x80000000;
  const highV = wv >= 0x80000000;
  const highD = wd >= 0x80000000;
  const c30 = i32x4.splat(143165577);
  const c15 = i32x4.splat(286331153);
  for (let i = top; i < bottom; i++) {
    let x = i * stride + left;
    const end = i * stride + right;
    for (; x + 4 <= end; x += 4) {
      const p = <usize>x << 2;
      const vh = weightQ32(v128.load(src + p), weightH, highH);
      const vv = weightQ32(v128.load(src + bandBytes + p), weightV, highV);
      const vd = weightQ32(v128.load(src + 2 * bandBytes + p), weightD, highD);
      v128.store(csf + p, vh);
      v128.store(csf + bandBytes + p, vv);
      v128.store(csf + 2 * bandBytes + p, vd);
      const mh = i32x4.abs(vh);
      const mv = i32x4.abs(vv);
      const md = i32x4.abs(vd);
      v128.store(flt + p, i32x4.add(i32x4.add(scaledQ32(mh, c30), scaledQ32(mv, c30)), scaledQ32(md, c30)));
      v128.store(centre + p, i32x4.add(i32x4.add(scaledQ32(mh, c15), scaledQ32(mv, c15)), scaledQ32(md, c15)));
    }
    for (; x < end; x++) {
      const p = <usize>x << 2;
      const vh = <i32>((<i64>load<i32>(src + p) * <i64>wh + 134217728) >> 28);
      const vv = <i32>((<i64>load<i32>(src + bandBytes + p) * <i64>wv + 134217728) >> 28);
      const vd = <i32>((<i64>load<i32>(src + 2 * bandBytes + p) * <i64>wd + 134217728) >> 28);
      store<i32>(csf + p, vh);
      store<i32>(csf + bandBytes + p, vv);
      store<i32>(csf + 2 * bandBytes + p, vd);
      const mh = <i64>abs(vh);
      const mv = <i64>abs(vv);
      const md = <i64>abs(vd);
      store<i32>(flt + p, <i32>((143165577 * mh - 2147483648) >> 32) + <i32>((143165577 * mv - 2147483648) >> 32) + <i32>((143165577 * md - 2147483648) >> 32));
      store<i32>(centre + p, <i32>((286331153 * mh - 2147483648) >> 32) + <i32>((286331153 * mv - 2147483648) >> 32) + <i32>((286331153 * md - 2147483648) >> 32));
    }
  }
}

// ---------------------------------------------------------------------------------------
// Denominators (csf-den.ts): uint64 sums, written to out[0..3) as C's (double) of them

/** Scale 0: Σ rows of ((Σ |c|^3 + round) >> shift) over h, v, d (|c|^3 below 2^45: c^2 and c^2 * c as uint32 products). */
export function denominatorScale0(ref: usize, bandBytes: usize, stride: i32, left: i32, top: i32, right: i32, bottom: i32, shift: u32, out: usize): void {
  const round: u64 = shift > 0 ? <u64>1 << (shift - 1) : 0;
  for (let theta = 0; theta < 3; theta++) {
    const band = ref + <usize>(theta + 1) * bandBytes;
    let sum: u64 = 0;
    for (let i = top; i < bottom; i++) {
      let x = i * stride + left;
      const end = i * stride + right;
      let acc = i64x2.splat(0);
      for (; x + 4 <= end; x += 4) {
        const c = i32x4.abs(v128.load16x4_s(band + (<usize>x << 1)));
        const c2 = i32x4.mul(c, c);
        acc = i64x2.add(acc, i64x2.add(i64x2.extmul_low_i32x4_u(c2, c), i64x2.extmul_high_i32x4_u(c2, c)));
      }
      let row = <u64>(i64x2.extract_lane(acc, 0) + i64x2.extract_lane(acc, 1));
      for (; x < end; x++) {
        const c = <i64>abs(<i32>load<i16>(band + (<usize>x << 1)));
        row += <u64>(c * c * c);
      }
      sum += (row + round) >> shift;
    }
    store<f64>(out + (<usize>theta << 3), <f64>sum);
  }
}

/**
 * Scales 1..3: c = |band| as uint32, square = (c^2 + 2^sq) >> sq, cube = (square * c +
 * round) >> cubeShift, rows rounded and shifted, all uint64 with libvmaf's wrap-around.
 */
export function denominatorInt32(ref: usize, bandBytes: usize, stride: i32, left: i32, top: i32, right: i32, bottom: i32, squareShift: u32, cubeShift: u32, rowShift: u32, out: usize): void {
  const squareRound: u64 = <u64>1 << squareShift;
  const cubeRound: u64 = cubeShift > 0 ? <u64>1 << (cubeShift - 1) : 0;
  const rowRound: u64 = rowShift > 0 ? <u64>1 << (rowShift - 1) : 0;
  for (let theta = 0; theta < 3; theta++) {
    const band = ref + <usize>(theta + 1) * bandBytes;
    let sum: u64 = 0;
    for (let i = top; i < bottom; i++) {
      let row: u64 = 0;
      for (let x = i * stride + left, end = i * stride + right; x < end; x++) {
        const c = <u64><u32>abs(load<i32>(band + (<usize>x << 2)));
        const square = (c * c + squareRound) >> squareShift;
        row += (square * c + cubeRound) >> cubeShift;
      }
      sum += (row + rowRound) >> rowShift;
    }
    store<f64>(out + (<usize>theta << 3), <f64>sum);
  }
}

// ---------------------------------------------------------------------------------------
// Contrast masking (contrast-masking.ts): int64 sums, written to out[0..3) as C's (double)
// of them and to out[3..6) as C's (float) of them

/** The masked cube of x >= 0: ((int32)((x^2 + 2^(sq-1)) >> sq) * x + round) >> cube, in i64 (x^2 below 2^62). */
@inline
function maskedCube(x: i32, sq: u32, cube: u32, cubeRound: i64): i64 {
  const square = <i64><i32>((<i64>x * <i64>x + (<i64>1 << (sq - 1))) >> sq);
  return (square * <i64>x + cubeRound) >> cube;
}

/**
 * The same for the four i32 lanes of x >= 0, the two i64x2 results added (mod 2^64). x^2
 * and, while every square is below 2^31 (x below about 2^30), square * x are unsigned
 * 32 x 32-bit products; a negative (wrapped) square takes signed products.
 */
@inline
function maskedCubes(x: v128, sq: u32, sqRound: v128, cube: u32, cubeRound: v128): v128 {
  const square = wrap32(i64x2.shr_u(i64x2.add(i64x2.extmul_low_i32x4_u(x, x), sqRound), sq), i64x2.shr_u(i64x2.add(i64x2.extmul_high_i32x4_u(x, x), sqRound), sq));
  if (i32x4.bitmask(square) == 0) {
    const l = i64x2.shr_u(i64x2.add(i64x2.extmul_low_i32x4_u(square, x), cubeRound), cube);
    const h = i64x2.shr_u(i64x2.add(i64x2.extmul_high_i32x4_u(square, x), cubeRound), cube);
    return i64x2.add(l, h);
  }
  const l = i64x2.shr_s(i64x2.add(i64x2.extmul_low_i32x4_s(square, x), cubeRound), cube);
  const h = i64x2.shr_s(i64x2.add(i64x2.extmul_high_i32x4_s(square, x), cubeRound), cube);
  return i64x2.add(l, h);
}

let rowH: i64 = 0;
let rowV: i64 = 0;
let rowD: i64 = 0;

/**
 * One coefficient through the general rule (any position, its 3x3 window mirrored at the
 * band's edges): threshold = the 8 neighbours' flt plus its centre (int32, wrapping), x =
 * |c * weight| - (threshold << subShift), clamped at 0, its masked cube added to the row.
 */
function maskTerm(
  src: usize, bandBytes: usize, shift16: bool, flt: usize, centre: usize, w: i32, h: i32, stride: i32, i: i32, j: i32,
  wh: i32, wv: i32, wd: i32, subHv: u32, subD: u32, sqHv: u32, cubeHv: u32, sqD: u32, cubeD: u32,
): void {
  const up = (i == 0 ? 1 : i - 1) * stride;
  const mid = i * stride;
  const down = (i == h - 1 ? h - 1 : i + 1) * stride;
  const jl = j == 0 ? 1 : j - 1;
  const jr = j == w - 1 ? w - 1 : j + 1;
  const thr =
    load<i32>(flt + (<usize>(up + jl) << 2)) + load<i32>(flt + (<usize>(up + j) << 2)) + load<i32>(flt + (<usize>(up + jr) << 2)) +
    load<i32>(flt + (<usize>(mid + jl) << 2)) + load<i32>(centre + (<usize>(mid + j) << 2)) + load<i32>(flt + (<usize>(mid + jr) << 2)) +
    load<i32>(flt + (<usize>(down + jl) << 2)) + load<i32>(flt + (<usize>(down + j) << 2)) + load<i32>(flt + (<usize>(down + jr) << 2));
  let ch: i32, cv: i32, cd: i32;
  if (shift16) {
    const p = <usize>(mid + j) << 1;
    ch = <i32>load<i16>(src + p);
    cv = <i32>load<i16>(src + bandBytes + p);
    cd = <i32>load<i16>(src + 2 * bandBytes + p);
  } else {
    const p = <usize>(mid + j) << 2;
    ch = load<i32>(src + p);
    cv = load<i32>(src + bandBytes + p);
    cd = load<i32>(src + 2 * bandBytes + p);
  }
  const xh = max(abs(ch * wh) - (thr << subHv), 0);
  const xv = max(abs(cv * wv) - (thr << subHv), 0);
  const xd = max(abs(cd * wd) - (thr << subD), 0);
  rowH += maskedCube(xh, sqHv, cubeHv, cubeHv > 0 ? <i64>1 << (cubeHv - 1) : 0);
  rowV += maskedCube(xv, sqHv, cubeHv, cubeHv > 0 ? <i64>1 << (cubeHv - 1) : 0);
  rowD += maskedCube(xd, sqD, cubeD, cubeD > 0 ? <i64>1 << (cubeD - 1) : 0);
}

/**
 * One scale's contrast masking sums over libvmaf's walk (rows [rowStart, rowEnd), columns
 * [colStart, colEnd), see walkRange): src the bands under test (h, v, d; int16 with uint16
 * weights at scale 0, int32 with weight 1 after), flt and centre the masker's sums. Rows
 * 1 .. h - 2 take columns 1 .. w - 2 four a step (their windows need no mirroring); each
 * row's sums are rounded by rowShift into the scale's sums.
 */
export function maskingSums(
  src: usize, bandBytes: usize, shift16: bool, flt: usize, centre: usize, w: i32, h: i32, stride: i32,
  rowStart: i32, rowEnd: i32, colStart: i32, colEnd: i32,
  wh: i32, wv: i32, wd: i32, subHv: u32, subD: u32, sqHv: u32, cubeHv: u32, sqD: u32, cubeD: u32, rowShift: u32, out: usize,
): void {
  const inner0 = max(colStart, 1);
  const inner1 = min(colEnd, w - 1);
  const rowRound: i64 = rowShift > 0 ? <i64>1 << (rowShift - 1) : 0;
  const weightH = i32x4.splat(wh), weightV = i32x4.splat(wv), weightD = i32x4.splat(wd);
  const sqRoundHv = i64x2.splat(<i64>1 << (sqHv - 1)), sqRoundD = i64x2.splat(<i64>1 << (sqD - 1));
  const cubeRoundHv = i64x2.splat(cubeHv > 0 ? <i64>1 << (cubeHv - 1) : 0), cubeRoundD = i64x2.splat(cubeD > 0 ? <i64>1 << (cubeD - 1) : 0);
  const zero = i32x4.splat(0);
  let sumH: i64 = 0, sumV: i64 = 0, sumD: i64 = 0;
  for (let i = rowStart; i < rowEnd; i++) {
    rowH = 0;
    rowV = 0;
    rowD = 0;
    if (colStart == 0) maskTerm(src, bandBytes, shift16, flt, centre, w, h, stride, i, 0, wh, wv, wd, subHv, subD, sqHv, cubeHv, sqD, cubeD);
    let j = inner0;
    if (i > 0 && i < h - 1) {
      const mid = i * stride;
      const up = flt + (<usize>(mid - stride) << 2);
      const row = flt + (<usize>mid << 2);
      const down = flt + (<usize>(mid + stride) << 2);
      let accH = i64x2.splat(0), accV = i64x2.splat(0), accD = i64x2.splat(0);
      for (; j + 4 <= inner1; j += 4) {
        const q = <usize>(j - 1) << 2;
        const thr = i32x4.add(
          i32x4.add(i32x4.add(v128.load(up + q), v128.load(up + q, 4)), i32x4.add(v128.load(up + q, 8), v128.load(row + q))),
          i32x4.add(
            i32x4.add(v128.load(centre + (<usize>(mid + j) << 2)), v128.load(row + q, 8)),
            i32x4.add(i32x4.add(v128.load(down + q), v128.load(down + q, 4)), v128.load(down + q, 8)),
          ),
        );
        let ch: v128, cv: v128, cd: v128;
        if (shift16) {
          const p = src + (<usize>(mid + j) << 1);
          ch = i32x4.abs(i32x4.mul(v128.load16x4_s(p), weightH));
          cv = i32x4.abs(i32x4.mul(v128.load16x4_s(p + bandBytes), weightV));
          cd = i32x4.abs(i32x4.mul(v128.load16x4_s(p + 2 * bandBytes), weightD));
        } else {
          const p = src + (<usize>(mid + j) << 2);
          ch = i32x4.abs(v128.load(p));
          cv = i32x4.abs(v128.load(p + bandBytes));
          cd = i32x4.abs(v128.load(p + 2 * bandBytes));
        }
        const tHv = i32x4.shl(thr, subHv);
        const xh = i32x4.max_s(i32x4.sub(ch, tHv), zero);
        const xv = i32x4.max_s(i32x4.sub(cv, tHv), zero);
        const xd = i32x4.max_s(i32x4.sub(cd, i32x4.shl(thr, subD)), zero);
        accH = i64x2.add(accH, maskedCubes(xh, sqHv, sqRoundHv, cubeHv, cubeRoundHv));
        accV = i64x2.add(accV, maskedCubes(xv, sqHv, sqRoundHv, cubeHv, cubeRoundHv));
        accD = i64x2.add(accD, maskedCubes(xd, sqD, sqRoundD, cubeD, cubeRoundD));
      }
      rowH += i64x2.extract_lane(accH, 0) + i64x2.extract_lane(accH, 1);
      rowV += i64x2.extract_lane(accV, 0) + i64x2.extract_lane(accV, 1);
      rowD += i64x2.extract_lane(accD, 0) + i64x2.extract_lane(accD, 1);
    }
    for (; j < inner1; j++) maskTerm(src, bandBytes, shift16, flt, centre, w, h, stride, i, j, wh, wv, wd, subHv, subD, sqHv, cubeHv, sqD, cubeD);
    if (colEnd == w) maskTerm(src, bandBytes, shift16, flt, centre, w, h, stride, i, w - 1, wh, wv, wd, subHv, subD, sqHv, cubeHv, sqD, cubeD);
    sumH += (rowH + rowRound) >> rowShift;
    sumV += (rowV + rowRound) >> rowShift;
    sumD += (rowD + rowRound) >> rowShift;
  }
  store<f64>(out, <f64>sumH);
  store<f64>(out, <f64>sumV, 8);
  store<f64>(out, <f64>sumD, 16);
  store<f64>(out, <f64><f32>sumH, 24);
  store<f64>(out, <f64><f32>sumV, 32);
  store<f64>(out, <f64><f32>sumD, 40);
}
