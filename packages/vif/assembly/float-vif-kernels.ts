// float_vif's WebAssembly SIMD kernels, in AssemblyScript (ADR 0040). They compute what
// src/cpu/float-vif-statistic.ts and src/cpu/float-vif-decimate.ts compute, bit for bit:
// those stay the readable specification, and the tests hold the two paths to each other and
// to libvmaf. Built by tools/build-wasm.ts into src/cpu/wasm/float-vif-kernels.wasm.ts.
//
// Every output is one lane: four columns a step, each lane doing the reference's float
// operations in its order (f32x4 for float steps, f64x2 where the reference computes in
// double), so each lane's float is the reference's. Only the sums over a row run across
// lanes, and they are added one column at a time, in column order, as the reference adds.
//
// Memory is laid out by the caller (src/cpu/float-vif-wasm.ts): planes of f32 with
// mirrored rows above and below, rows of f32 with `pad` samples of room on either side;
// pointers are byte addresses of sample 0. A step may read and write up to 8 floats past a
// row's end (padding or slack the caller allocates), never adding what it computes there.

// the current scale's sums (vif_statistic_s's accumulators), floats
let accNum: f32 = 0;
let accDen: f32 = 0;

/** Where the caller may start laying out its buffers. */
export function heapBase(): usize {
  return __heap_base;
}

export function sumNum(): f32 {
  return accNum;
}

export function sumDen(): f32 {
  return accDen;
}

/**
 * libvmaf's picture_copy with offset -128 (the reference's convertLuma): `count` samples at
 * `src` (u8 when `narrow`, else u16) as floats at `dst`, divided by `scaler` (a power of two:
 * exact) less 128 (exact), eight a step; may write up to 7 floats past the end.
 */
export function lumaToFloat(src: usize, narrow: bool, count: i32, dst: usize, scaler: f32): void {
  const inv = f32x4.splat(1 / scaler);
  const offset = f32x4.splat(128);
  for (let i = 0; i < count; i += 8) {
    const x = narrow ? v128.load8x8_u(src + <usize>i) : v128.load(src + (<usize>i << 1));
    const lo = f32x4.convert_i32x4_u(i32x4.extend_low_i16x8_u(x));
    const hi = f32x4.convert_i32x4_u(i32x4.extend_high_i16x8_u(x));
    v128.store(dst + (<usize>i << 2), f32x4.sub(f32x4.mul(lo, inv), offset));
    v128.store(dst + (<usize>i << 2) + 16, f32x4.sub(f32x4.mul(hi, inv), offset));
  }
}

/** Samples -1..-half and width..width-1+half of an f32 row, mirrored (the reference's mirrorRow). */
function mirrorRow(row: usize, width: i32, half: i32): void {
  const last = row + (<usize>(width - 1) << 2);
  for (let f = 1; f <= half; f++) {
    const off = <usize>f << 2;
    store<f32>(row - off, load<f32>(row + off));
    store<f32>(last + off, load<f32>(last - off));
  }
}

/** Rows -1..-half and height..height-1+half of an f32 plane, mirrored (mirrorRows). */
function mirrorPlaneRows(plane: usize, stride: i32, width: i32, height: i32, half: i32): void {
  const rowBytes = <usize>stride << 2;
  const last = plane + <usize>(height - 1) * rowBytes;
  for (let i = 1; i <= half; i++) {
    const off = <usize>i * rowBytes;
    memory.copy(plane - off, plane + off, <usize>width << 2);
    memory.copy(last + off, last - off, <usize>width << 2);
  }
}

/**
 * libvmaf's log2f_approx (src/numerics/float-log2.ts) in four lanes: the exponent plus a
 * degree-8 polynomial (its nine floats at `poly`) in the mantissa by Horner's rule, float
 * operations; 0 gives -Infinity and a negative x NaN, as there.
 */
@inline
function log2Approx(x: v128, poly: usize): v128 {
  const exponent = v128.and(i32x4.shr_u(x, 23), i32x4.splat(0xff));
  const t = f32x4.sub(v128.or(v128.and(x, i32x4.splat(0x7fffff)), i32x4.splat(0x3f800000)), f32x4.splat(1));
  let p = f32x4.splat(0);
  for (let i = 0; i < 9; i++) p = f32x4.add(f32x4.mul(p, t), v128.load32_splat(poly + (<usize>i << 2)));
  const r = f32x4.add(f32x4.convert_i32x4_s(i32x4.sub(exponent, i32x4.splat(127))), p);
  const zero = f32x4.splat(0);
  return v128.bitselect(f32x4.splat(NaN), v128.bitselect(f32x4.splat(-Infinity), r, f32x4.eq(x, zero)), f32x4.lt(x, zero));
}

/** Four f32 lanes from two f64x2 (lanes 0-1 from `lo`, 2-3 from `hi`), each rounded to float. */
@inline
function demote4(lo: v128, hi: v128): v128 {
  return i32x4.shuffle(f32x4.demote_f64x2_zero(lo), f32x4.demote_f64x2_zero(hi), 0, 1, 4, 5);
}

/** Lanes 2 and 3 of an f32x4 moved to lanes 0 and 1 (WebAssembly promotes only the low two). */
@inline
function highHalf(v: v128): v128 {
  return i32x4.shuffle(v, v, 2, 3, 2, 3);
}

/** 1 + a / (b + nsq) in double for four float lanes, rounded to float (numer's argument). */
@inline
function onePlusRatio(a: v128, b: v128, nsq: v128): v128 {
  const one = f64x2.splat(1);
  const lo = f64x2.add(one, f64x2.div(f64x2.promote_low_f32x4(a), f64x2.add(f64x2.promote_low_f32x4(b), nsq)));
  const hi = f64x2.add(one, f64x2.div(f64x2.promote_low_f32x4(highHalf(a)), f64x2.add(f64x2.promote_low_f32x4(highHalf(b)), nsq)));
  return demote4(lo, hi);
}

/** 1 + a / nsq in double for four float lanes, rounded to float (denom's argument). */
@inline
function onePlusQuotient(a: v128, nsq: v128): v128 {
  const one = f64x2.splat(1);
  return demote4(f64x2.add(one, f64x2.div(f64x2.promote_low_f32x4(a), nsq)), f64x2.add(one, f64x2.div(f64x2.promote_low_f32x4(highHalf(a)), nsq)));
}

/** `sum` plus lanes 0 .. lanes-1 of `v`, one float addition at a time in lane order (a row's sum, column by column). */
@inline
function addLanes(sum: f32, v: v128, lanes: i32): f32 {
  sum += f32x4.extract_lane(v, 0);
  if (lanes > 1) sum += f32x4.extract_lane(v, 1);
  if (lanes > 2) sum += f32x4.extract_lane(v, 2);
  if (lanes > 3) sum += f32x4.extract_lane(v, 3);
  return sum;
}

// the step's terms, for the row's column-by-column sums
let stepNum: v128 = f32x4.splat(0);
let stepDen: v128 = f32x4.splat(0);

/**
 * vif_statistic_s's terms for four columns from their sigmas (sigma1_sq and sigma2_sq
 * already clamped at 0): gain, the log terms where sigma1_sq reaches sigma_nsq, else the
 * linear ones; into stepNum and stepDen.
 */
@inline
function terms(sigma1Sq: v128, s2: v128, s12: v128, eps: f32, nsq: f64, gainLimit: f32, sigmaMaxInv: f32, poly: usize): void {
  const zero = f32x4.splat(0);
  const epsV = f32x4.splat(eps);
  let s1 = sigma1Sq;

  let g = f32x4.div(s12, f32x4.add(s1, epsV));
  let sv = f32x4.sub(s2, f32x4.mul(g, s12));
  let m = f32x4.lt(s1, epsV);
  g = v128.andnot(g, m);
  sv = v128.bitselect(s2, sv, m);
  s1 = v128.andnot(s1, m);
  m = f32x4.lt(s2, epsV);
  g = v128.andnot(g, m);
  sv = v128.andnot(sv, m);
  m = f32x4.lt(g, zero);
  sv = v128.bitselect(s2, sv, m);
  g = v128.andnot(g, m);
  sv = v128.bitselect(sv, epsV, f32x4.gt(sv, epsV)); // MAX(sv_sq, eps)
  const limit = f32x4.splat(gainLimit);
  g = v128.bitselect(g, limit, f32x4.lt(g, limit)); // MIN(g, limit)

  const nsqV = f64x2.splat(nsq);
  let num = log2Approx(onePlusRatio(f32x4.mul(f32x4.mul(g, g), s1), sv, nsqV), poly);
  let den = log2Approx(onePlusQuotient(s1, nsqV), poly);
  num = v128.andnot(num, f32x4.lt(s12, zero));
  // sigma1_sq < sigma_nsq, compared in double
  const below = i32x4.shuffle(f64x2.lt(f64x2.promote_low_f32x4(s1), nsqV), f64x2.lt(f64x2.promote_low_f32x4(highHalf(s1)), nsqV), 0, 2, 4, 6);
  stepNum = v128.bitselect(f32x4.sub(f32x4.splat(1), f32x4.mul(s2, f32x4.splat(sigmaMaxInv))), num, below);
  stepDen = v128.bitselect(f32x4.splat(1), den, below);
}

/**
 * The vertical pass for one row, four columns a step: each statistic's taps added in order
 * from zero (vif_filter1d_s/_sq_s/_xy_s), to the five rows at `rows` (`rowStep` bytes apart).
 */
function verticalRow(ref: usize, dis: usize, rowBytes: usize, width: i32, filter: usize, taps: i32, rows: usize, rowStep: usize): void {
  for (let j = 0; j < width; j += 4) {
    let m1 = f32x4.splat(0), m2 = f32x4.splat(0), rr = f32x4.splat(0), dd = f32x4.splat(0), rd = f32x4.splat(0);
    let p = <usize>j << 2;
    for (let k = 0; k < taps; k++, p += rowBytes) {
      const c = v128.load32_splat(filter + (<usize>k << 2));
      const a = v128.load(ref + p);
      const b = v128.load(dis + p);
      m1 = f32x4.add(m1, f32x4.mul(c, a));
      m2 = f32x4.add(m2, f32x4.mul(c, b));
      rr = f32x4.add(rr, f32x4.mul(c, f32x4.mul(a, a)));
      dd = f32x4.add(dd, f32x4.mul(c, f32x4.mul(b, b)));
      rd = f32x4.add(rd, f32x4.mul(c, f32x4.mul(a, b)));
    }
    const at = rows + (<usize>j << 2);
    v128.store(at, m1);
    v128.store(at + rowStep, m2);
    v128.store(at + 2 * rowStep, rr);
    v128.store(at + 3 * rowStep, dd);
    v128.store(at + 4 * rowStep, rd);
  }
}

/**
 * One scale's numerator and denominator (vif_statistic_s over the filtered planes): per row,
 * the vertical pass into five rows, their mirrored ends, the horizontal pass into three
 * sigma rows after them, then the terms, added column by column. Read the sums back with
 * sumNum and sumDen.
 */
export function statisticScale(
  ref: usize, dis: usize, stride: i32, width: i32, height: i32, filter: usize, taps: i32,
  rows: usize, rowStep: usize, eps: f32, nsq: f64, gainLimit: f32, sigmaMaxInv: f32, poly: usize,
): void {
  const half = taps >> 1;
  const rowBytes = <usize>stride << 2;
  let num: f32 = 0;
  let den: f32 = 0;
  for (let i = 0; i < height; i++) {
    const top = <usize>(i - half) * rowBytes;
    verticalRow(ref + top, dis + top, rowBytes, width, filter, taps, rows, rowStep);
    for (let r = 0; r < 5; r++) mirrorRow(rows + <usize>r * rowStep, width, half);
    const sigmas = rows + 5 * rowStep;
    for (let j = 0; j < width; j += 4) {
      let mu1 = f32x4.splat(0), mu2 = f32x4.splat(0), xx = f32x4.splat(0), yy = f32x4.splat(0), xy = f32x4.splat(0);
      let q = rows + (<usize>(j - half) << 2);
      for (let k = 0; k < taps; k++, q += 4) {
        const c = v128.load32_splat(filter + (<usize>k << 2));
        mu1 = f32x4.add(mu1, f32x4.mul(c, v128.load(q)));
        mu2 = f32x4.add(mu2, f32x4.mul(c, v128.load(q + rowStep)));
        xx = f32x4.add(xx, f32x4.mul(c, v128.load(q + 2 * rowStep)));
        yy = f32x4.add(yy, f32x4.mul(c, v128.load(q + 3 * rowStep)));
        xy = f32x4.add(xy, f32x4.mul(c, v128.load(q + 4 * rowStep)));
      }
      const zero = f32x4.splat(0);
      const s1 = f32x4.sub(xx, f32x4.mul(mu1, mu1));
      const s2 = f32x4.sub(yy, f32x4.mul(mu2, mu2));
      const at = sigmas + (<usize>j << 2);
      v128.store(at, v128.bitselect(s1, zero, f32x4.gt(s1, zero))); // MAX(x, 0.0f), NaN to 0
      v128.store(at + rowStep, v128.bitselect(s2, zero, f32x4.gt(s2, zero)));
      v128.store(at + 2 * rowStep, f32x4.sub(xy, f32x4.mul(mu1, mu2)));
    }
    // the terms in a loop of their own: their long chains of dependent steps (divisions,
    // the polynomials) overlap from one step to the next, as they could not between filter sums
    let rowNum: f32 = 0;
    let rowDen: f32 = 0;
    for (let j = 0; j < width; j += 4) {
      const at = sigmas + (<usize>j << 2);
      terms(v128.load(at), v128.load(at + rowStep), v128.load(at + 2 * rowStep), eps, nsq, gainLimit, sigmaMaxInv, poly);
      const lanes = width - j;
      rowNum = addLanes(rowNum, stepNum, lanes);
      rowDen = addLanes(rowDen, stepDen, lanes);
    }
    num += rowNum;
    den += rowDen;
  }
  accNum = num;
  accDen = den;
}

/**
 * The next scale of the pyramid (vif_filter1d_s then vif_dec2_s, only the kept samples):
 * each kept row blurred vertically into `rowA`/`rowB` (four columns a step), mirrored, then
 * the even columns blurred horizontally (four a step, their samples gathered from two
 * loads); then the new planes' rows mirrored by the filter's radius.
 */
export function decimate(
  fromRef: usize, fromDis: usize, stride: i32, width: i32, height: i32, filter: usize, taps: i32,
  toRef: usize, toDis: usize, rowA: usize, rowB: usize,
): void {
  const half = taps >> 1;
  const rowBytes = <usize>stride << 2;
  const outWidth = width >> 1;
  const outHeight = height >> 1;
  for (let r = 0; r < outHeight; r++) {
    const top = <usize>(2 * r - half) * rowBytes;
    for (let j = 0; j < width; j += 4) {
      let a = f32x4.splat(0), b = f32x4.splat(0);
      let p = top + (<usize>j << 2);
      for (let k = 0; k < taps; k++, p += rowBytes) {
        const c = v128.load32_splat(filter + (<usize>k << 2));
        a = f32x4.add(a, f32x4.mul(c, v128.load(fromRef + p)));
        b = f32x4.add(b, f32x4.mul(c, v128.load(fromDis + p)));
      }
      v128.store(rowA + (<usize>j << 2), a);
      v128.store(rowB + (<usize>j << 2), b);
    }
    mirrorRow(rowA, width, half);
    mirrorRow(rowB, width, half);
    const target = <usize>r * rowBytes;
    for (let c = 0; c < outWidth; c += 4) {
      let a = f32x4.splat(0), b = f32x4.splat(0);
      let q = <usize>(2 * c - half) << 2;
      for (let k = 0; k < taps; k++, q += 4) {
        const f = v128.load32_splat(filter + (<usize>k << 2));
        // columns 2c+k-half, 2c+2+k-half, ...: the even lanes of eight floats
        const ea = i32x4.shuffle(v128.load(rowA + q), v128.load(rowA + q + 16), 0, 2, 4, 6);
        const eb = i32x4.shuffle(v128.load(rowB + q), v128.load(rowB + q + 16), 0, 2, 4, 6);
        a = f32x4.add(a, f32x4.mul(f, ea));
        b = f32x4.add(b, f32x4.mul(f, eb));
      }
      v128.store(toRef + target + (<usize>c << 2), a);
      v128.store(toDis + target + (<usize>c << 2), b);
    }
  }
  mirrorPlaneRows(toRef, stride, outWidth, outHeight, half);
  mirrorPlaneRows(toDis, stride, outWidth, outHeight, half);
}
