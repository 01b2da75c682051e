// float_adm's WebAssembly SIMD kernels, in AssemblyScript (ADR 0040). They compute what
// src/float/float-dwt2.ts, float-decouple.ts, float-csf.ts and float-contrast-masking.ts
// compute, bit for bit: those stay the readable specification, and the tests hold the two
// paths to each other and to libvmaf. Built by tools/build-wasm.ts into
// src/float/wasm/float-adm-kernels.wasm.ts.
//
// Every output is one lane: four adjacent coefficients a step, each lane doing the
// reference's float operations in its order (f32x4 for float steps: +, −, ×, ÷ of floats
// computed in double and rounded once give the float result; f64x2 where the reference
// computes in double before its float store). Only the sums over a row run across lanes,
// and they are added one column at a time, in column order, as the reference adds them.
// The sums cube (adm_p_norm 3, x*x*x in float); other norms need powf: the TypeScript code.
//
// Memory is laid out by the caller (src/float/float-adm-wasm.ts). Bands are f32 planes,
// rows `stride` floats apart (a multiple of 8) with at least 8 floats of room after each
// row's last coefficient and 4 before row 0: a step may write up to 7 floats past a row
// (never read), and the masking thresholds find mirrored columns −1 and w in that room.
// Band sets (a, h, v, d or h, v, d) are `bandBytes` apart; pointers are byte addresses of
// coefficient (0, 0). Steps read up to 16 bytes past a buffer's end (the caller's slack).

// libvmaf's float literals (adm_tools.c), rounded to float as the reference's Math.fround does
const LO0 = <f32>0.48296291314469;
const LO1 = <f32>0.836516303737469;
const LO2 = <f32>0.224143868041857;
const LO3 = <f32>-0.129409522550921;
const HI0 = <f32>-0.129409522550921;
const HI1 = <f32>-0.224143868041857;
const HI2 = <f32>0.836516303737469;
const HI3 = <f32>-0.48296291314469;
const EPS = <f32>1e-30;
// FLOAT_ONE_BY_30 and FLOAT_ONE_BY_15: double literals in libvmaf, multiplied in double
const ONE_BY_30: f64 = 0.0333333351;
const ONE_BY_15: f64 = 0.0666666701;

/** Where the caller may start laying out its buffers. */
export function heapBase(): usize {
  return __heap_base;
}

// @ts-ignore: decorator
@inline
function low(v: v128): v128 {
  return f64x2.promote_low_f32x4(v);
}

// @ts-ignore: decorator
@inline
function high(v: v128): v128 {
  return f64x2.promote_low_f32x4(f32x4.shuffle(v, v, 2, 3, 2, 3));
}

/** Four doubles (lanes 0-1 from `lo`, 2-3 from `hi`) rounded to float, in one vector. */
// @ts-ignore: decorator
@inline
function demote4(lo: v128, hi: v128): v128 {
  return f32x4.shuffle(f32x4.demote_f64x2_zero(lo), f32x4.demote_f64x2_zero(hi), 0, 1, 4, 5);
}

/** f(f(f(f(k0·s0) + f(k1·s1)) + f(k2·s2)) + f(k3·s3)): one db2 filter, float-dwt2.ts's taps4. */
// @ts-ignore: decorator
/** `sum` plus lanes 0 .. lanes-1 of `v`, one float addition at a time in lane order (a row's sum, column by column). */
@inline
function addLanes(sum: f32, v: v128, lanes: i32): f32 {
  sum += f32x4.extract_lane(v, 0);
  if (lanes > 1) sum += f32x4.extract_lane(v, 1);
  if (lanes > 2) sum += f32x4.extract_lane(v, 2);
  if (lanes > 3) sum += f32x4.extract_lane(v, 3);
  return sum;
}

@inline
function taps4(k0: v128, k1: v128, k2: v128, k3: v128, s0: v128, s1: v128, s2: v128, s3: v128): v128 {
  return f32x4.add(f32x4.add(f32x4.add(f32x4.mul(k0, s0), f32x4.mul(k1, s1)), f32x4.mul(k2, s2)), f32x4.mul(k3, s3));
}

/** Row or column `k` of `n` as libvmaf's dwt2_src_indices_filt mirrors it: −1 is 1, n + m is n − 1 − m. */
// @ts-ignore: decorator
@inline
function mirror(k: i32, n: i32): i32 {
  return k < 0 ? 1 : k >= n ? 2 * n - k - 1 : k;
}

/**
 * The vertical filters of one output row into the tmp rows (LO's even and odd columns, HI's
 * even and odd columns, `tmpBytes` apart), eight source columns a step, split into the four
 * even and the four odd ones so that the horizontal pass reads each of its taps with one
 * load. Source rows r0..r3 are a split a band (f32: evens, then odds `oddBytes` on) or
 * samples (u8, u16: the even samples are the low halves of 32-bit lanes, the odd ones the
 * high halves), converted as pictureToFloat: 8-bit less 128, deeper ones times `inv`
 * (2^−(bits−8): exact, like the reference's division) less 128 (one rounding, like its
 * Float32Array store of the double difference).
 */
function verticalRow<T>(r0: usize, r1: usize, r2: usize, r3: usize, oddBytes: usize, w: i32, inv: f32, tmp: usize, tmpBytes: usize, lowOnly: bool): void {
  const l0 = f32x4.splat(LO0), l1 = f32x4.splat(LO1), l2 = f32x4.splat(LO2), l3 = f32x4.splat(LO3);
  const h0 = f32x4.splat(HI0), h1 = f32x4.splat(HI1), h2 = f32x4.splat(HI2), h3 = f32x4.splat(HI3);
  const scale = f32x4.splat(inv);
  const offset = f32x4.splat(128);
  const low16 = i32x4.splat(0xffff);
  for (let j = 0; j < w; j += 8) {
    let e0: v128, e1: v128, e2: v128, e3: v128, o0: v128, o1: v128, o2: v128, o3: v128;
    if (sizeof<T>() == 4) {
      const at = <usize>j << 1; // j / 2 floats
      e0 = v128.load(r0 + at);
      e1 = v128.load(r1 + at);
      e2 = v128.load(r2 + at);
      e3 = v128.load(r3 + at);
      o0 = v128.load(r0 + oddBytes + at);
      o1 = v128.load(r1 + oddBytes + at);
      o2 = v128.load(r2 + oddBytes + at);
      o3 = v128.load(r3 + oddBytes + at);
    } else {
      const at = <usize>j * sizeof<T>();
      const x0 = sizeof<T>() == 1 ? v128.load8x8_u(r0 + at) : v128.load(r0 + at);
      const x1 = sizeof<T>() == 1 ? v128.load8x8_u(r1 + at) : v128.load(r1 + at);
      const x2 = sizeof<T>() == 1 ? v128.load8x8_u(r2 + at) : v128.load(r2 + at);
      const x3 = sizeof<T>() == 1 ? v128.load8x8_u(r3 + at) : v128.load(r3 + at);
      // integers below 2^16: converted exactly
      e0 = f32x4.convert_i32x4_s(v128.and(x0, low16));
      e1 = f32x4.convert_i32x4_s(v128.and(x1, low16));
      e2 = f32x4.convert_i32x4_s(v128.and(x2, low16));
      e3 = f32x4.convert_i32x4_s(v128.and(x3, low16));
      o0 = f32x4.convert_i32x4_s(i32x4.shr_u(x0, 16));
      o1 = f32x4.convert_i32x4_s(i32x4.shr_u(x1, 16));
      o2 = f32x4.convert_i32x4_s(i32x4.shr_u(x2, 16));
      o3 = f32x4.convert_i32x4_s(i32x4.shr_u(x3, 16));
      if (sizeof<T>() == 2) {
        e0 = f32x4.mul(e0, scale);
        e1 = f32x4.mul(e1, scale);
        e2 = f32x4.mul(e2, scale);
        e3 = f32x4.mul(e3, scale);
        o0 = f32x4.mul(o0, scale);
        o1 = f32x4.mul(o1, scale);
        o2 = f32x4.mul(o2, scale);
        o3 = f32x4.mul(o3, scale);
      }
      e0 = f32x4.sub(e0, offset);
      e1 = f32x4.sub(e1, offset);
      e2 = f32x4.sub(e2, offset);
      e3 = f32x4.sub(e3, offset);
      o0 = f32x4.sub(o0, offset);
      o1 = f32x4.sub(o1, offset);
      o2 = f32x4.sub(o2, offset);
      o3 = f32x4.sub(o3, offset);
    }
    const k = tmp + (<usize>j << 1);
    v128.store(k, taps4(l0, l1, l2, l3, e0, e1, e2, e3));
    v128.store(k + tmpBytes, taps4(l0, l1, l2, l3, o0, o1, o2, o3));
    if (lowOnly) continue;
    v128.store(k + 2 * tmpBytes, taps4(h0, h1, h2, h3, e0, e1, e2, e3));
    v128.store(k + 3 * tmpBytes, taps4(h0, h1, h2, h3, o0, o1, o2, o3));
  }
}

/** Where column k (−1 and up) of a split tmp row is: the even row for even k, the odd row (`tmpBytes` on) for odd k. */
// @ts-ignore: decorator
@inline
function tmpColumn(even: usize, tmpBytes: usize, k: i32): usize {
  return even + (k & 1 ? tmpBytes : 0) + (<usize>(k >> 1) << 2);
}

/** Columns −1, w and w + 1 of a split tmp row, mirrored, so that every output finds its four taps. */
function mirrorTmp(even: usize, tmpBytes: usize, w: i32): void {
  store<f32>(tmpColumn(even, tmpBytes, -1), load<f32>(tmpColumn(even, tmpBytes, 1)));
  store<f32>(tmpColumn(even, tmpBytes, w), load<f32>(tmpColumn(even, tmpBytes, w - 1)));
  store<f32>(tmpColumn(even, tmpBytes, w + 1), load<f32>(tmpColumn(even, tmpBytes, w - 2)));
}

/**
 * The horizontal filters of one split tmp row (`even`, odd `tmpBytes` on) into two bands,
 * LO into `first` and HI into `second` (skipped when lowOnly), eight outputs a step: output
 * j reads columns 2j − 1, 2j, 2j + 1, 2j + 2, i.e. odd j − 1, even j, odd j, even j + 1.
 * `first` is the a band when `split` (stored as its even columns, then its odd ones
 * `oddBytes` on: the next scale's vertical pass reads them so).
 */
function horizontalRow(even: usize, tmpBytes: usize, halfW: i32, first: usize, split: bool, oddBytes: usize, second: usize, lowOnly: bool): void {
  const l0 = f32x4.splat(LO0), l1 = f32x4.splat(LO1), l2 = f32x4.splat(LO2), l3 = f32x4.splat(LO3);
  const h0 = f32x4.splat(HI0), h1 = f32x4.splat(HI1), h2 = f32x4.splat(HI2), h3 = f32x4.splat(HI3);
  const odd = even + tmpBytes;
  for (let j = 0; j < halfW; j += 8) {
    const at = <usize>j << 2;
    const t0 = v128.load(odd + at - 4), t1 = v128.load(even + at), t2 = v128.load(odd + at), t3 = v128.load(even + at, 4);
    const u0 = v128.load(odd + at, 12), u1 = v128.load(even + at, 16), u2 = v128.load(odd + at, 16), u3 = v128.load(even + at, 20);
    const lo = taps4(l0, l1, l2, l3, t0, t1, t2, t3);
    const lo4 = taps4(l0, l1, l2, l3, u0, u1, u2, u3);
    if (split) {
      v128.store(first + (<usize>j << 1), f32x4.shuffle(lo, lo4, 0, 2, 4, 6));
      v128.store(first + oddBytes + (<usize>j << 1), f32x4.shuffle(lo, lo4, 1, 3, 5, 7));
    } else {
      v128.store(first + at, lo);
      v128.store(first + at, lo4, 16);
    }
    if (lowOnly) continue;
    v128.store(second + at, taps4(h0, h1, h2, h3, t0, t1, t2, t3));
    v128.store(second + at, taps4(h0, h1, h2, h3, u0, u1, u2, u3), 16);
  }
}

/**
 * One DWT level (float-dwt2.ts's floatDwt2): a w×h source into the bands a, h, v, d of
 * (w+1)/2 × (h+1)/2 at `out` (a; then h, v, d, `bandBytes` apart), row by row: the four
 * source rows' vertical filters, then the horizontal ones. The a band's rows are stored
 * split, even columns then odd ones half a stride on (it is only the next level's source).
 * The source is the picture's samples (`kind` 1: u8, 2: u16, converted as pictureToFloat
 * with `inv`) or a split a band (`kind` 0), which may be `out`'s own a band: output row i
 * is written after its source rows are read, and no later row reads source row i. `tmp`:
 * four rows `tmpBytes` apart, each with a float of room before it.
 */
export function dwt(
  src: usize, kind: i32, srcStride: i32, w: i32, h: i32, inv: f32,
  out: usize, bandBytes: usize, stride: i32, tmp: usize, tmpBytes: usize, lowOnly: bool,
): void {
  const halfW = (w + 1) >> 1;
  const halfH = (h + 1) >> 1;
  const rowBytes = <usize>srcStride * <usize>(kind == 0 ? 4 : kind);
  const oddBytes = <usize>stride << 1; // half a row
  for (let i = 0; i < halfH; i++) {
    const r0 = src + <usize>mirror(2 * i - 1, h) * rowBytes;
    const r1 = src + <usize>mirror(2 * i, h) * rowBytes;
    const r2 = src + <usize>mirror(2 * i + 1, h) * rowBytes;
    const r3 = src + <usize>mirror(2 * i + 2, h) * rowBytes;
    if (kind == 1) verticalRow<u8>(r0, r1, r2, r3, oddBytes, w, inv, tmp, tmpBytes, lowOnly);
    else if (kind == 2) verticalRow<u16>(r0, r1, r2, r3, oddBytes, w, inv, tmp, tmpBytes, lowOnly);
    else verticalRow<f32>(r0, r1, r2, r3, oddBytes, w, inv, tmp, tmpBytes, lowOnly);
    const a = out + <usize>i * (<usize>stride << 2);
    // a = LO(LO rows), v = HI(LO rows), h = LO(HI rows), d = HI(HI rows)
    mirrorTmp(tmp, tmpBytes, w);
    horizontalRow(tmp, tmpBytes, halfW, a, true, oddBytes, a + 2 * bandBytes, lowOnly);
    if (lowOnly) continue;
    const hiRows = tmp + 2 * tmpBytes;
    mirrorTmp(hiRows, tmpBytes, w);
    horizontalRow(hiRows, tmpBytes, halfW, a + bandBytes, false, 0, a + 3 * bandBytes, false);
  }
}

/** float-decouple.ts's ratio: clamp(t / (o + 1e-30), 0, 1), the division as libvmaf's reciprocal and Newton step. */
// @ts-ignore: decorator
@inline
function ratio(o: v128, t: v128): v128 {
  const one = f32x4.splat(1);
  const d = f32x4.add(o, f32x4.splat(EPS));
  const xi = f32x4.div(one, d);
  const k = f32x4.mul(t, f32x4.add(xi, f32x4.mul(xi, f32x4.sub(one, f32x4.mul(d, xi)))));
  // k < 0 ? 0 : k > 1 ? 1 : k, as pmax(k, 0) = (k < 0 ? 0 : k) and pmin(y, 1) = (1 < y ? 1 : y): NaN and −0 stay, as there
  return f32x4.pmin(f32x4.pmax(k, f32x4.splat(0)), one);
}

/**
 * float-decouple.ts's restore: where the angle changed by less than 1 degree, the restored
 * coefficient times the gain limit, no further than t. The reference rounds the double
 * Math.min(rst · gain, t) (or max) to float; as rounding is monotonic and t is a float, that
 * is the float min of f(rst · gain) and t (selected where rst ≠ 0, so f(rst · gain) ≠ 0 and
 * the ties are of equal floats). f(rst · gain) is f32x4.mul when the gain is a float (G = f32:
 * the double product of two floats is exact), else the double product demoted (G = f64).
 */
// @ts-ignore: decorator
@inline
function restore<G>(rst: v128, t: v128, angle: v128, gain: f64): v128 {
  const zero = f32x4.splat(0);
  let boost: v128;
  if (sizeof<G>() == 4) {
    boost = f32x4.mul(rst, f32x4.splat(<f32>gain));
  } else {
    const g = f64x2.splat(gain);
    boost = demote4(f64x2.mul(low(rst), g), f64x2.mul(high(rst), g));
  }
  const up = f32x4.pmin(t, boost); // boost < t ? boost : t
  const down = f32x4.pmax(t, boost); // t < boost ? boost : t
  const r = v128.bitselect(up, rst, v128.and(angle, f32x4.gt(rst, zero)));
  return v128.bitselect(down, r, v128.and(angle, f32x4.lt(rst, zero)));
}

/** floatCsf's masker: ONE_BY_30 · |c| in double, rounded to float. */
// @ts-ignore: decorator
@inline
function thirtieth(c: v128): v128 {
  const k = f64x2.splat(ONE_BY_30);
  const m = f32x4.abs(c);
  return demote4(f64x2.mul(k, low(m)), f64x2.mul(k, high(m)));
}

/**
 * One orientation of four coefficients: restored r and additive t − r (floatDecouple),
 * then both through the CSF (floatCsf): c = weight · band into `csf*`, |c| / 30 into `flt*`.
 */
// @ts-ignore: decorator
@inline
function decoupleOrientation<G>(o: v128, t: v128, angle: v128, gain: f64, weight: v128, csfR: usize, csfA: usize, fltR: usize, fltA: usize): void {
  const r = restore<G>(f32x4.mul(ratio(o, t), o), t, angle, gain);
  const cr = f32x4.mul(weight, r);
  const ca = f32x4.mul(weight, f32x4.sub(t, r));
  v128.store(csfR, cr);
  v128.store(csfA, ca);
  v128.store(fltR, thirtieth(cr));
  v128.store(fltA, thirtieth(ca));
}

/** Column −1 of a row as column 1, column w as w − 1: the masking threshold's mirrored neighbours. */
function mirrorColumns(row: usize, w: i32, left: bool, right: bool): void {
  if (left) store<f32>(row - 4, load<f32>(row + 4));
  if (right) store<f32>(row + (<usize>w << 2), load<f32>(row + (<usize>(w - 1) << 2)));
}

/**
 * floatDecouple, then floatCsf of both parts, over the filter region: from the ref and dis
 * detail bands (h at `ref` / `dis`, then v, d) to the CSF-weighted restored and additive
 * bands (`csfR`, `csfA`) and their maskers |c| / 30 (`fltR`, `fltA`), each a set h, v, d.
 * The restored and additive bands themselves are not kept: the CSF values are all the
 * masking reads. The maskers' mirrored columns are filled where the region reaches an edge.
 */
export function decoupleCsf(
  ref: usize, dis: usize, csfR: usize, csfA: usize, fltR: usize, fltA: usize, bandBytes: usize, stride: i32, w: i32,
  left: i32, top: i32, right: i32, bottom: i32, gain: f64, cosSq: f32, weightHv: f32, weightD: f32,
): void {
  if (<f64><f32>gain == gain) decoupleRows<f32>(ref, dis, csfR, csfA, fltR, fltA, bandBytes, stride, w, left, top, right, bottom, gain, cosSq, weightHv, weightD);
  else decoupleRows<f64>(ref, dis, csfR, csfA, fltR, fltA, bandBytes, stride, w, left, top, right, bottom, gain, cosSq, weightHv, weightD);
}

function decoupleRows<G>(
  ref: usize, dis: usize, csfR: usize, csfA: usize, fltR: usize, fltA: usize, bandBytes: usize, stride: i32, w: i32,
  left: i32, top: i32, right: i32, bottom: i32, gain: f64, cosSq: f32, weightHv: f32, weightD: f32,
): void {
  const zero = f32x4.splat(0);
  const cos = f32x4.splat(cosSq);
  const wHv = f32x4.splat(weightHv);
  const wD = f32x4.splat(weightD);
  const v = bandBytes;
  const d = 2 * bandBytes;
  for (let i = top; i < bottom; i++) {
    const row = <usize>i * (<usize>stride << 2);
    for (let j = left; j < right; j += 4) {
      const x = row + (<usize>j << 2);
      const oh = v128.load(ref + x), ov = v128.load(ref + v + x), od = v128.load(ref + d + x);
      const th = v128.load(dis + x), tv = v128.load(dis + v + x), td = v128.load(dis + d + x);
      const dot = f32x4.add(f32x4.mul(oh, th), f32x4.mul(ov, tv));
      const oMag = f32x4.add(f32x4.mul(oh, oh), f32x4.mul(ov, ov));
      const tMag = f32x4.add(f32x4.mul(th, th), f32x4.mul(tv, tv));
      const angle = v128.and(f32x4.ge(dot, zero), f32x4.ge(f32x4.mul(dot, dot), f32x4.mul(f32x4.mul(cos, oMag), tMag)));
      decoupleOrientation<G>(oh, th, angle, gain, wHv, csfR + x, csfA + x, fltR + x, fltA + x);
      decoupleOrientation<G>(ov, tv, angle, gain, wHv, csfR + v + x, csfA + v + x, fltR + v + x, fltA + v + x);
      decoupleOrientation<G>(od, td, angle, gain, wD, csfR + d + x, csfA + d + x, fltR + d + x, fltA + d + x);
    }
    for (let theta: usize = 0; theta < 3; theta++) {
      mirrorColumns(fltR + theta * bandBytes + row, w, left == 0, right == w);
      mirrorColumns(fltA + theta * bandBytes + row, w, left == 0, right == w);
    }
  }
}

// a scale's three float sums (h, v, d), for the caller at `out` as doubles
// @ts-ignore: decorator
@inline
function storeSums(out: usize, h: f32, v: f32, d: f32): void {
  store<f64>(out, <f64>h);
  store<f64>(out, <f64>v, 8);
  store<f64>(out, <f64>d, 16);
}

/** floatPower for p = 3: f(f(x·x)·x). */
// @ts-ignore: decorator
@inline
function cube(x: v128): v128 {
  return f32x4.mul(f32x4.mul(x, x), x);
}

/**
 * floatCsfDenominator's sums before the L3 norm: per orientation, |weight · ref|³ added in
 * float per row, in column order, and the rows' sums added in float, over the score region.
 */
export function denominatorSums(ref: usize, bandBytes: usize, stride: i32, left: i32, top: i32, right: i32, bottom: i32, weightHv: f32, weightD: f32, out: usize): void {
  const wHv = f32x4.splat(weightHv);
  const wD = f32x4.splat(weightD);
  let accH: f32 = 0, accV: f32 = 0, accD: f32 = 0;
  for (let i = top; i < bottom; i++) {
    const row = ref + <usize>i * (<usize>stride << 2);
    let innerH: f32 = 0, innerV: f32 = 0, innerD: f32 = 0;
    for (let j = left; j < right; j += 4) {
      const x = row + (<usize>j << 2);
      const h = cube(f32x4.abs(f32x4.mul(wHv, v128.load(x))));
      const v = cube(f32x4.abs(f32x4.mul(wHv, v128.load(x + bandBytes))));
      const d = cube(f32x4.abs(f32x4.mul(wD, v128.load(x + 2 * bandBytes))));
      const lanes = right - j;
      innerH = addLanes(innerH, h, lanes);
      innerV = addLanes(innerV, v, lanes);
      innerD = addLanes(innerD, d, lanes);
    }
    accH += innerH;
    accV += innerV;
    accD += innerD;
  }
  storeSums(out, accH, accV, accD);
}

/**
 * One orientation's share of the masking threshold for four coefficients: the 3×3 sum of
 * the maskers |c| / 30 at `flt` with the centre as |c| · ONE_BY_15 (in double, from the
 * CSF value at `centre`), in floatContrastMasking's order; `up`, `mid` and `down` are the
 * rows' byte offsets of column j (mirrored rows already chosen).
 */
// @ts-ignore: decorator
@inline
function maskingSum(flt: usize, centre: usize, up: usize, mid: usize, down: usize): v128 {
  let sum = f32x4.add(f32x4.add(f32x4.add(v128.load(flt + up - 4), v128.load(flt + up)), v128.load(flt + up + 4)), v128.load(flt + mid - 4));
  const k = f64x2.splat(ONE_BY_15);
  const m = f32x4.abs(v128.load(centre + mid));
  sum = demote4(f64x2.add(low(sum), f64x2.mul(k, low(m))), f64x2.add(high(sum), f64x2.mul(k, high(m))));
  return f32x4.add(f32x4.add(f32x4.add(f32x4.add(sum, v128.load(flt + mid + 4)), v128.load(flt + down - 4)), v128.load(flt + down)), v128.load(flt + down + 4));
}

/**
 * floatContrastMasking's sums before the L3 norm: per orientation, max(|c| − threshold, 0)³
 * of the CSF values at `src` (h, v, d), the threshold from the maskers `flt` and their CSF
 * values `centre` (none when `bypass`), added in float per row in column order, the rows'
 * sums added in float; rows and columns as floatContrastMasking walks them (row −1 is row
 * 1, row h is h − 1; the columns' mirrors are in the maskers' rows).
 */
export function maskingSums(
  src: usize, centre: usize, flt: usize, bandBytes: usize, stride: i32, h: i32,
  rowStart: i32, rowEnd: i32, colStart: i32, colEnd: i32, bypass: bool, out: usize,
): void {
  const zero = f32x4.splat(0);
  const v = bandBytes;
  const d = 2 * bandBytes;
  const rowBytes = <usize>stride << 2;
  let accH: f32 = 0, accV: f32 = 0, accD: f32 = 0;
  for (let i = rowStart; i < rowEnd; i++) {
    const up = <usize>(i == 0 ? 1 : i - 1) * rowBytes;
    const mid = <usize>i * rowBytes;
    const down = <usize>(i == h - 1 ? h - 1 : i + 1) * rowBytes;
    let innerH: f32 = 0, innerV: f32 = 0, innerD: f32 = 0;
    for (let j = colStart; j < colEnd; j += 4) {
      const c = <usize>j << 2;
      let thr = zero;
      if (!bypass) {
        thr = f32x4.add(thr, maskingSum(flt, centre, up + c, mid + c, down + c));
        thr = f32x4.add(thr, maskingSum(flt + v, centre + v, up + c, mid + c, down + c));
        thr = f32x4.add(thr, maskingSum(flt + d, centre + d, up + c, mid + c, down + c));
      }
      let xh = f32x4.sub(f32x4.abs(v128.load(src + mid + c)), thr);
      let xv = f32x4.sub(f32x4.abs(v128.load(src + v + mid + c)), thr);
      let xd = f32x4.sub(f32x4.abs(v128.load(src + d + mid + c)), thr);
      // if (x < 0) x = 0: pmax(x, 0) is (x < 0 ? 0 : x), NaN and −0 staying as there
      xh = cube(f32x4.pmax(xh, zero));
      xv = cube(f32x4.pmax(xv, zero));
      xd = cube(f32x4.pmax(xd, zero));
      const lanes = colEnd - j;
      innerH = addLanes(innerH, xh, lanes);
      innerV = addLanes(innerV, xv, lanes);
      innerD = addLanes(innerD, xd, lanes);
    }
    accH += innerH;
    accV += innerV;
    accD += innerD;
  }
  storeSums(out, accH, accV, accD);
}
