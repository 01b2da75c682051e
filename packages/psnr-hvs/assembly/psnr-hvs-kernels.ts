// psnr_hvs's WebAssembly SIMD kernels, in AssemblyScript (ADR 0040). They compute what
// src/plane-error.ts and src/od-dct.ts compute, bit for bit: those stay the readable
// specification, and the tests hold the two paths to each other and to libvmaf. Built by
// tools/build-wasm.ts into src/wasm/psnr-hvs-kernels.wasm.ts.
//
// One BLOCK per lane: four horizontally adjacent 8x8 blocks a step, each lane doing the
// reference's operations in its order. The DCT is integer arithmetic: in i32x4 lanes (wrapping
// as Math.imul and the shifts do) or, where the samples allow, in i16x8 lanes holding both
// pictures' four blocks (below). The masking and the errors are float operations (f32x4: for
// +, −, ×, ÷ and √ of floats the f32 instruction gives Math.fround of the double operation).
// The sums over a block's samples and coefficients run inside each lane, in the reference's
// order. Only the plane's float sum runs across blocks: it adds lane 0's 64 terms, then lane
// 1's, ..., as the reference adds blocks in raster order.
//
// Exact for samples of up to 12 bits (the caller takes the reference for wider ones): the
// DCT's coefficients then stay below 2^16, so their differences are exact as floats.
//
// Memory is laid out by the caller (src/psnr-hvs-wasm.ts): planes of u8 (8-bit) or u16
// samples, rows `stride` samples apart; six work buffers of 64 v128; the CSF and masking
// tables as 64 floats. Every pointer is a byte address. The last step of a row may read up
// to 21 samples past a block row's end (its lanes past the last block compute on whatever
// is there and are never added), so the caller leaves slack after each plane.

/** Where the caller may start laying out its buffers. */
export function heapBase(): usize {
  return __heap_base;
}

/** The largest of `count` u16 samples at `at`: it picks the transform's lanes, and above 4095 the caller takes the reference. */
export function largestSample(at: usize, count: i32): i32 {
  let lanes = i16x8.splat(0);
  let i = 0;
  for (; i + 8 <= count; i += 8) lanes = i16x8.max_u(lanes, v128.load(at + (<usize>i << 1)));
  lanes = i16x8.max_u(lanes, i16x8.shuffle(lanes, lanes, 4, 5, 6, 7, 0, 1, 2, 3));
  lanes = i16x8.max_u(lanes, i16x8.shuffle(lanes, lanes, 2, 3, 0, 1, 2, 3, 0, 1));
  lanes = i16x8.max_u(lanes, i16x8.shuffle(lanes, lanes, 1, 0, 1, 0, 1, 0, 1, 0));
  let largest = <i32>i16x8.extract_lane_u(lanes, 0);
  for (; i < count; i++) largest = max(largest, <i32>load<u16>(at + (<usize>i << 1)));
  return largest;
}

/**
 * One row of four blocks 7 samples apart, the first at `row`, as eight vectors at `out`
 * (vector j: sample j of each block's row; lanes are blocks): four loads as u16, transposed.
 */
@inline
function loadBlockRow<T>(row: usize, out: usize): void {
  let a: v128, b: v128, c: v128, d: v128;
  if (sizeof<T>() == 1) {
    a = v128.load8x8_u(row);
    b = v128.load8x8_u(row + 7);
    c = v128.load8x8_u(row + 14);
    d = v128.load8x8_u(row + 21);
  } else {
    a = v128.load(row);
    b = v128.load(row + 14);
    c = v128.load(row + 28);
    d = v128.load(row + 42);
  }
  const abLow = i16x8.shuffle(a, b, 0, 8, 1, 9, 2, 10, 3, 11); // a0 b0 a1 b1 a2 b2 a3 b3
  const abHigh = i16x8.shuffle(a, b, 4, 12, 5, 13, 6, 14, 7, 15);
  const cdLow = i16x8.shuffle(c, d, 0, 8, 1, 9, 2, 10, 3, 11);
  const cdHigh = i16x8.shuffle(c, d, 4, 12, 5, 13, 6, 14, 7, 15);
  const j01 = i32x4.shuffle(abLow, cdLow, 0, 4, 1, 5); // a0 b0 c0 d0 a1 b1 c1 d1
  const j23 = i32x4.shuffle(abLow, cdLow, 2, 6, 3, 7);
  const j45 = i32x4.shuffle(abHigh, cdHigh, 0, 4, 1, 5);
  const j67 = i32x4.shuffle(abHigh, cdHigh, 2, 6, 3, 7);
  v128.store(out, i32x4.extend_low_i16x8_u(j01));
  v128.store(out, i32x4.extend_high_i16x8_u(j01), 16);
  v128.store(out, i32x4.extend_low_i16x8_u(j23), 32);
  v128.store(out, i32x4.extend_high_i16x8_u(j23), 48);
  v128.store(out, i32x4.extend_low_i16x8_u(j45), 64);
  v128.store(out, i32x4.extend_high_i16x8_u(j45), 80);
  v128.store(out, i32x4.extend_low_i16x8_u(j67), 96);
  v128.store(out, i32x4.extend_high_i16x8_u(j67), 112);
}

/** Four blocks' samples (top-left at x, x + 7, x + 14, x + 21 of row y) as 64 i32x4 at `block`, row-major. */
@inline
function loadBlocks<T>(plane: usize, stride: i32, x: i32, y: i32, block: usize): void {
  for (let i = 0; i < 8; i++) loadBlockRow<T>(plane + ((<usize>(y + i) * <usize>stride + <usize>x) << alignof<T>()), block + (<usize>i << 7));
}

// The transform in lanes of L: i32 (four blocks of one picture: any samples of up to 12
// bits) or i16 (four blocks of both pictures, for samples below 2^11: every intermediate
// of the reference's transform then stays within ±16411, bounded as an affine form of the
// samples plus each step's rounding (psnr-hvs-wasm.test.ts), so the 16-bit operations give
// its int32 values; at 12 bits that bound passes 2^15).

@inline
function add<L>(a: v128, b: v128): v128 {
  return sizeof<L>() == 2 ? i16x8.add(a, b) : i32x4.add(a, b);
}

@inline
function sub<L>(a: v128, b: v128): v128 {
  return sizeof<L>() == 2 ? i16x8.sub(a, b) : i32x4.sub(a, b);
}

/** (a + (a < 0)) >> 1: halving rounded toward zero (Daala's OD_DCT_RSHIFT(a, 1)). */
@inline
function half<L>(a: v128): v128 {
  return sizeof<L>() == 2 ? i16x8.shr_s(i16x8.add(a, i16x8.shr_u(a, 15)), 1) : i32x4.shr_s(i32x4.add(a, i32x4.shr_u(a, 31)), 1);
}

/**
 * (a·c + 2^(s−1)) >> s: a lifting step's rounded multiplication by c / 2^s. In i16 lanes
 * q15mulr's (a·c' + 2^14) >> 15 with c' = c·2^(15−s), the same quotient (every c' < 2^15).
 */
@inline
function lift<L>(a: v128, c: i32, s: i32): v128 {
  return sizeof<L>() == 2
    ? i16x8.q15mulr_sat_s(a, i16x8.splat(<i16>(c << (15 - s))))
    : i32x4.shr_s(i32x4.add(i32x4.mul(a, i32x4.splat(c)), i32x4.splat(1 << (s - 1))), s);
}

/** od-dct.ts's fdct8 in lanes: reads src + k·128 (a column of a block), writes dst + k·16 (a row). */
@inline
function fdct8<L>(dst: usize, src: usize): void {
  let t0 = v128.load(src);
  let t4 = v128.load(src, 128);
  let t2 = v128.load(src, 256);
  let t6 = v128.load(src, 384);
  let t7 = v128.load(src, 512);
  let t3 = v128.load(src, 640);
  let t5 = v128.load(src, 768);
  let t1 = v128.load(src, 896);
  // +1/-1 butterflies
  t1 = sub<L>(t0, t1);
  const t1h = half<L>(t1);
  t0 = sub<L>(t0, t1h);
  t4 = add<L>(t4, t5);
  const t4h = half<L>(t4);
  t5 = sub<L>(t5, t4h);
  t3 = sub<L>(t2, t3);
  t2 = sub<L>(t2, half<L>(t3));
  t6 = add<L>(t6, t7);
  const t6h = half<L>(t6);
  t7 = sub<L>(t6h, t7);
  // embedded 4-point type-II DCT
  t0 = add<L>(t0, t6h);
  t6 = sub<L>(t0, t6);
  t2 = sub<L>(t4h, t2);
  t4 = sub<L>(t2, t4);
  // embedded 2-point type-II DCT
  t0 = sub<L>(t0, lift<L>(t4, 13573, 15));
  t4 = add<L>(t4, lift<L>(t0, 11585, 14));
  t0 = sub<L>(t0, lift<L>(t4, 13573, 15));
  // embedded 2-point type-IV DST
  t6 = sub<L>(t6, lift<L>(t2, 21895, 15));
  t2 = add<L>(t2, lift<L>(t6, 15137, 14));
  t6 = sub<L>(t6, lift<L>(t2, 21895, 15));
  // embedded 4-point type-IV DST
  t3 = add<L>(t3, lift<L>(t5, 19195, 15));
  t5 = add<L>(t5, lift<L>(t3, 11585, 14));
  t3 = sub<L>(t3, lift<L>(t5, 7489, 13));
  t7 = sub<L>(half<L>(t5), t7);
  t5 = sub<L>(t5, t7);
  t3 = sub<L>(t1h, t3);
  t1 = sub<L>(t1, t3);
  t7 = add<L>(t7, lift<L>(t1, 3227, 15));
  t1 = sub<L>(t1, lift<L>(t7, 6393, 15));
  t7 = add<L>(t7, lift<L>(t1, 3227, 15));
  t5 = add<L>(t5, lift<L>(t3, 2485, 13));
  t3 = sub<L>(t3, lift<L>(t5, 18205, 15));
  t5 = add<L>(t5, lift<L>(t3, 2485, 13));
  v128.store(dst, t0);
  v128.store(dst, t1, 16);
  v128.store(dst, t2, 32);
  v128.store(dst, t3, 48);
  v128.store(dst, t4, 64);
  v128.store(dst, t5, 80);
  v128.store(dst, t6, 96);
  v128.store(dst, t7, 112);
}

/** fdct8x8 of the blocks at `block` (64 vectors of lanes L), in place: columns into `transform`, then its columns back. */
@inline
function fdct8x8<L>(block: usize, transform: usize): void {
  for (let i = 0; i < 8; i++) fdct8<L>(transform + (<usize>i << 7), block + (<usize>i << 4));
  for (let i = 0; i < 8; i++) fdct8<L>(block + (<usize>i << 7), transform + (<usize>i << 4));
}

/**
 * Both pictures' four blocks (i32 lanes) transformed as one block of i16 lanes (reference
 * blocks in lanes 0..3, distorted in 4..7; every sample below 2^11) and widened back.
 */
@inline
function fdct8x8Pair(refBlock: usize, distBlock: usize, pair: usize, transform: usize): void {
  for (let k: usize = 0; k < 1024; k += 16) v128.store(pair + k, i16x8.narrow_i32x4_s(v128.load(refBlock + k), v128.load(distBlock + k)));
  fdct8x8<i16>(pair, transform);
  for (let k: usize = 0; k < 1024; k += 16) {
    const c = v128.load(pair + k);
    v128.store(refBlock + k, i32x4.extend_low_i16x8_s(c));
    v128.store(distBlock + k, i32x4.extend_high_i16x8_s(c));
  }
}

/** (v − mean)², a float: v − mean is exact (an integer less a multiple of 1/64), the square rounded once. */
@inline
function squaredDeviation(v: v128, mean: v128): v128 {
  const d = f32x4.sub(v, mean);
  return f32x4.mul(d, d);
}

// Slots (v128) of the statistics buffer: each picture's block mean, quadrant means, sums
// of squared deviations from those, and its variance ratio; the reference's first.
const MEAN = 0;
const QUADRANT_MEANS = 2; // 4 a picture: top-left 0, bottom-left 1, top-right 2, bottom-right 3 (quadrant())
const DEVIATIONS = 10;
const QUADRANT_DEVIATIONS = 12;
const RATIO = 20;

@inline
function slot(stats: usize, at: i32, picture: i32): usize {
  return stats + (<usize>(at + picture) << 4);
}

@inline
function quadrantSlot(stats: usize, at: i32, picture: i32, quadrant: i32): usize {
  return stats + (<usize>(at + 4 * picture + quadrant) << 4);
}

/** Four blocks' block and quadrant means: integer sums (exact in any order) of at most 64 samples of 16 bits, exact quotients. */
@inline
function means(block: usize, stats: usize, picture: i32): void {
  let s0 = i32x4.splat(0);
  let s1 = s0;
  let s2 = s0;
  let s3 = s0;
  for (let i = 0; i < 8; i++) {
    const row = block + (<usize>i << 7);
    const left = i32x4.add(i32x4.add(v128.load(row), v128.load(row, 16)), i32x4.add(v128.load(row, 32), v128.load(row, 48)));
    const right = i32x4.add(i32x4.add(v128.load(row, 64), v128.load(row, 80)), i32x4.add(v128.load(row, 96), v128.load(row, 112)));
    if (i < 4) {
      s0 = i32x4.add(s0, left);
      s2 = i32x4.add(s2, right);
    } else {
      s1 = i32x4.add(s1, left);
      s3 = i32x4.add(s3, right);
    }
  }
  v128.store(slot(stats, MEAN, picture), f32x4.div(f32x4.convert_i32x4_s(i32x4.add(i32x4.add(s0, s1), i32x4.add(s2, s3))), f32x4.splat(64)));
  v128.store(quadrantSlot(stats, QUADRANT_MEANS, picture, 0), f32x4.div(f32x4.convert_i32x4_s(s0), f32x4.splat(16)));
  v128.store(quadrantSlot(stats, QUADRANT_MEANS, picture, 1), f32x4.div(f32x4.convert_i32x4_s(s1), f32x4.splat(16)));
  v128.store(quadrantSlot(stats, QUADRANT_MEANS, picture, 2), f32x4.div(f32x4.convert_i32x4_s(s2), f32x4.splat(16)));
  v128.store(quadrantSlot(stats, QUADRANT_MEANS, picture, 3), f32x4.div(f32x4.convert_i32x4_s(s3), f32x4.splat(16)));
}

/**
 * The float sums of squared deviations over rows `first`..`first` + 3 of both pictures'
 * blocks, in raster order as the reference adds them: from the block's mean (continued from
 * the rows above) and from the quadrant's (the left and right quadrants of these rows).
 * Both pictures in one loop: their float sums are independent chains that overlap.
 */
@inline
function addDeviations(refBlock: usize, distBlock: usize, first: i32, stats: usize): void {
  const leftQuadrant = first >> 2; // quadrant() of (first, 0) and (first, 4)
  const rightQuadrant = leftQuadrant + 2;
  const refMean = v128.load(slot(stats, MEAN, 0));
  const distMean = v128.load(slot(stats, MEAN, 1));
  const refLeftMean = v128.load(quadrantSlot(stats, QUADRANT_MEANS, 0, leftQuadrant));
  const distLeftMean = v128.load(quadrantSlot(stats, QUADRANT_MEANS, 1, leftQuadrant));
  const refRightMean = v128.load(quadrantSlot(stats, QUADRANT_MEANS, 0, rightQuadrant));
  const distRightMean = v128.load(quadrantSlot(stats, QUADRANT_MEANS, 1, rightQuadrant));
  let refSum = v128.load(slot(stats, DEVIATIONS, 0));
  let distSum = v128.load(slot(stats, DEVIATIONS, 1));
  let refLeft = f32x4.splat(0);
  let distLeft = refLeft;
  let refRight = refLeft;
  let distRight = refLeft;
  for (let i = first; i < first + 4; i++) {
    const refRow = refBlock + (<usize>i << 7);
    const distRow = distBlock + (<usize>i << 7);
    for (let j = 0; j < 4; j++) {
      const r = f32x4.convert_i32x4_s(v128.load(refRow + (<usize>j << 4)));
      const d = f32x4.convert_i32x4_s(v128.load(distRow + (<usize>j << 4)));
      refSum = f32x4.add(refSum, squaredDeviation(r, refMean));
      distSum = f32x4.add(distSum, squaredDeviation(d, distMean));
      refLeft = f32x4.add(refLeft, squaredDeviation(r, refLeftMean));
      distLeft = f32x4.add(distLeft, squaredDeviation(d, distLeftMean));
    }
    for (let j = 4; j < 8; j++) {
      const r = f32x4.convert_i32x4_s(v128.load(refRow + (<usize>j << 4)));
      const d = f32x4.convert_i32x4_s(v128.load(distRow + (<usize>j << 4)));
      refSum = f32x4.add(refSum, squaredDeviation(r, refMean));
      distSum = f32x4.add(distSum, squaredDeviation(d, distMean));
      refRight = f32x4.add(refRight, squaredDeviation(r, refRightMean));
      distRight = f32x4.add(distRight, squaredDeviation(d, distRightMean));
    }
  }
  v128.store(slot(stats, DEVIATIONS, 0), refSum);
  v128.store(slot(stats, DEVIATIONS, 1), distSum);
  v128.store(quadrantSlot(stats, QUADRANT_DEVIATIONS, 0, leftQuadrant), refLeft);
  v128.store(quadrantSlot(stats, QUADRANT_DEVIATIONS, 1, leftQuadrant), distLeft);
  v128.store(quadrantSlot(stats, QUADRANT_DEVIATIONS, 0, rightQuadrant), refRight);
  v128.store(quadrantSlot(stats, QUADRANT_DEVIATIONS, 1, rightQuadrant), distRight);
}

/** One picture's variance ratio from its sums: the quadrants' variances over the block's, where that is positive; else the block's (0). */
@inline
function varianceRatio(stats: usize, picture: i32, globalVarScale: v128, quadrantVarScale: v128): void {
  const variance = f32x4.mul(v128.load(slot(stats, DEVIATIONS, picture)), globalVarScale);
  const v0 = f32x4.mul(v128.load(quadrantSlot(stats, QUADRANT_DEVIATIONS, picture, 0)), quadrantVarScale);
  const v1 = f32x4.mul(v128.load(quadrantSlot(stats, QUADRANT_DEVIATIONS, picture, 1)), quadrantVarScale);
  const v2 = f32x4.mul(v128.load(quadrantSlot(stats, QUADRANT_DEVIATIONS, picture, 2)), quadrantVarScale);
  const v3 = f32x4.mul(v128.load(quadrantSlot(stats, QUADRANT_DEVIATIONS, picture, 3)), quadrantVarScale);
  const ratio = f32x4.div(f32x4.add(f32x4.add(f32x4.add(v0, v1), v2), v3), variance);
  v128.store(slot(stats, RATIO, picture), v128.bitselect(ratio, variance, f32x4.gt(variance, f32x4.splat(0))));
}

/**
 * The first half of plane-error.ts's blockMasking for both pictures' four blocks of
 * samples: their variance ratios, at `stats`' RATIO slots.
 */
@inline
function varianceRatios(refBlock: usize, distBlock: usize, stats: usize, globalVarScale: v128, quadrantVarScale: v128): void {
  means(refBlock, stats, 0);
  means(distBlock, stats, 1);
  v128.store(slot(stats, DEVIATIONS, 0), f32x4.splat(0));
  v128.store(slot(stats, DEVIATIONS, 1), f32x4.splat(0));
  addDeviations(refBlock, distBlock, 0, stats);
  addDeviations(refBlock, distBlock, 4, stats);
  varianceRatio(stats, 0, globalVarScale, quadrantVarScale);
  varianceRatio(stats, 1, globalVarScale, quadrantVarScale);
}

/**
 * The second half of blockMasking for both pictures' four blocks of coefficients:
 * sqrt(Σ AC² · mask · ratio) / 32, the AC coefficients in order; then of the two, the
 * distorted block's where it is larger, else the reference's (a select, as there: not max).
 */
@inline
function blockMasking(refBlock: usize, distBlock: usize, refRatio: v128, distRatio: v128, mask: usize): v128 {
  let refEnergy = f32x4.splat(0);
  let distEnergy = refEnergy;
  for (let k = 1; k < 64; k++) {
    const at = <usize>k << 4;
    const weight = v128.load32_splat(mask + (<usize>k << 2));
    const r = v128.load(refBlock + at);
    const d = v128.load(distBlock + at);
    refEnergy = f32x4.add(refEnergy, f32x4.mul(f32x4.convert_i32x4_s(i32x4.mul(r, r)), weight));
    distEnergy = f32x4.add(distEnergy, f32x4.mul(f32x4.convert_i32x4_s(i32x4.mul(d, d)), weight));
  }
  const refMasking = f32x4.div(f32x4.sqrt(f32x4.mul(refEnergy, refRatio)), f32x4.splat(32));
  const distMasking = f32x4.div(f32x4.sqrt(f32x4.mul(distEnergy, distRatio)), f32x4.splat(32));
  return v128.bitselect(distMasking, refMasking, f32x4.gt(distMasking, refMasking));
}

/**
 * The four blocks' 64 terms each (coefficient k of lane l at terms + 16k + 4l): the error
 * |ref − dist| of each coefficient less its masking threshold (none for DC), or 0 where the
 * threshold hides it, weighted by the CSF and squared.
 */
@inline
function blockTerms(refBlock: usize, distBlock: usize, masking: v128, csf: usize, mask: usize, terms: usize): void {
  let err = f32x4.convert_i32x4_s(i32x4.abs(i32x4.sub(v128.load(refBlock), v128.load(distBlock))));
  let w = f32x4.mul(err, v128.load32_splat(csf));
  v128.store(terms, f32x4.mul(w, w));
  for (let k = 1; k < 64; k++) {
    const at = <usize>k << 4;
    err = f32x4.convert_i32x4_s(i32x4.abs(i32x4.sub(v128.load(refBlock + at), v128.load(distBlock + at))));
    const threshold = f32x4.div(masking, v128.load32_splat(mask + (<usize>k << 2)));
    // err < threshold ? 0 : err − threshold
    err = v128.andnot(f32x4.sub(err, threshold), f32x4.lt(err, threshold));
    w = f32x4.mul(err, v128.load32_splat(csf + (<usize>k << 2)));
    v128.store(terms + at, f32x4.mul(w, w));
  }
}

/** Where coefficient k's terms are not 0, four blocks: an i32x4 of all-ones lanes. */
@inline
function nonzero(terms: usize, k: i32): v128 {
  return f32x4.ne(v128.load(terms + (<usize>k << 4)), f32x4.splat(0));
}

/** Coefficients k..k + 3's nonzero flags as bytes, 4·(coefficient − k) + block. */
@inline
function nonzeroBytes(terms: usize, k: i32): v128 {
  return i8x16.narrow_i16x8_s(i16x8.narrow_i32x4_s(nonzero(terms, k), nonzero(terms, k + 1)), i16x8.narrow_i32x4_s(nonzero(terms, k + 2), nonzero(terms, k + 3)));
}

/** Adds block `lane`'s terms at coefficients whose bit is set in `coefficients` to `sum`, in coefficient order. */
@inline
function addTerms(sum: f32, terms: usize, lane: i32, coefficients: u64): f32 {
  const at = terms + (<usize>lane << 2);
  for (let m = coefficients; m != 0; m &= m - 1) sum += load<f32>(at + (<usize>ctz(m) << 4));
  return sum;
}

/**
 * `sum` plus the first `blocks` blocks' terms, block after block, each block's in coefficient
 * order, as the reference adds them. Only the nonzero terms are added: adding 0 leaves a
 * float sum unchanged (the sum of squares is never −0), and most terms are 0 (masked: 80 % in
 * a 1080p x264 frame), so the sum's chain of dependent additions, the step's longest, is
 * that much shorter.
 */
@inline
function addBlockTerms(sum: f32, terms: usize, blocks: i32): f32 {
  // bit k of block l's mask: its term k is not 0 (16 coefficients at a time, transposed as bytes)
  let mask0: u64 = 0;
  let mask1: u64 = 0;
  let mask2: u64 = 0;
  let mask3: u64 = 0;
  for (let k = 0; k < 64; k += 16) {
    const b0 = nonzeroBytes(terms, k);
    const b1 = nonzeroBytes(terms, k + 4);
    const b2 = nonzeroBytes(terms, k + 8);
    const b3 = nonzeroBytes(terms, k + 12);
    // blocks 0 and 1 (then 2 and 3), coefficients k..k + 7 (x) and k + 8..k + 15 (y)
    const x01 = i8x16.shuffle(b0, b1, 0, 4, 8, 12, 16, 20, 24, 28, 1, 5, 9, 13, 17, 21, 25, 29);
    const x23 = i8x16.shuffle(b0, b1, 2, 6, 10, 14, 18, 22, 26, 30, 3, 7, 11, 15, 19, 23, 27, 31);
    const y01 = i8x16.shuffle(b2, b3, 0, 4, 8, 12, 16, 20, 24, 28, 1, 5, 9, 13, 17, 21, 25, 29);
    const y23 = i8x16.shuffle(b2, b3, 2, 6, 10, 14, 18, 22, 26, 30, 3, 7, 11, 15, 19, 23, 27, 31);
    mask0 |= <u64>i8x16.bitmask(i8x16.shuffle(x01, y01, 0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23)) << k;
    mask1 |= <u64>i8x16.bitmask(i8x16.shuffle(x01, y01, 8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31)) << k;
    mask2 |= <u64>i8x16.bitmask(i8x16.shuffle(x23, y23, 0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23)) << k;
    mask3 |= <u64>i8x16.bitmask(i8x16.shuffle(x23, y23, 8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31)) << k;
  }
  sum = addTerms(sum, terms, 0, mask0);
  if (blocks > 1) sum = addTerms(sum, terms, 1, mask1);
  if (blocks > 2) sum = addTerms(sum, terms, 2, mask2);
  if (blocks > 3) sum = addTerms(sum, terms, 3, mask3);
  return sum;
}

/** planeSum on samples of type T, the transform in lanes of L. */
function planeSumOf<T, L>(
  ref: usize, dist: usize, stride: i32, width: i32, height: i32, csf: usize, mask: usize,
  globalVarScale: f32, quadrantVarScale: f32, work: usize,
): f32 {
  const refBlock = work;
  const distBlock = work + 1024;
  const pair = work + 2048;
  const transform = work + 3072;
  const terms = work + 4096;
  const stats = work + 5120;
  const globalScale = f32x4.splat(globalVarScale);
  const quadrantScale = f32x4.splat(quadrantVarScale);
  const across = width < 8 ? 0 : (width - 8) / 7 + 1;
  const down = height < 8 ? 0 : (height - 8) / 7 + 1;
  let sum: f32 = 0;
  for (let by = 0; by < down; by++) {
    const y = by * 7;
    for (let bx = 0; bx < across; bx += 4) {
      const x = bx * 7;
      loadBlocks<T>(ref, stride, x, y, refBlock);
      loadBlocks<T>(dist, stride, x, y, distBlock);
      varianceRatios(refBlock, distBlock, stats, globalScale, quadrantScale);
      if (sizeof<L>() == 2) {
        fdct8x8Pair(refBlock, distBlock, pair, transform);
      } else {
        fdct8x8<i32>(refBlock, transform);
        fdct8x8<i32>(distBlock, transform);
      }
      const masking = blockMasking(refBlock, distBlock, v128.load(slot(stats, RATIO, 0)), v128.load(slot(stats, RATIO, 1)), mask);
      blockTerms(refBlock, distBlock, masking, csf, mask, terms);
      sum = addBlockTerms(sum, terms, min(4, across - bx));
    }
  }
  return sum;
}

/**
 * plane-error.ts's planeError before its normalisation: the float sum of every block's
 * terms, blocks every 7 samples in raster order, over `width` x `height` samples of `ref`
 * and `dist` (u8 when `narrow`, else u16; rows `stride` samples apart), whose largest sample
 * is `largest` (at most 4095; below 2^11 the transform runs in i16 lanes). `work` holds
 * 6 KB of buffers; `csf` and `mask` the plane's 64 floats each.
 */
export function planeSum(
  ref: usize, dist: usize, narrow: bool, largest: i32, stride: i32, width: i32, height: i32, csf: usize, mask: usize,
  globalVarScale: f32, quadrantVarScale: f32, work: usize,
): f32 {
  if (narrow) return planeSumOf<u8, i16>(ref, dist, stride, width, height, csf, mask, globalVarScale, quadrantVarScale, work);
  if (largest < 2048) return planeSumOf<u16, i16>(ref, dist, stride, width, height, csf, mask, globalVarScale, quadrantVarScale, work);
  return planeSumOf<u16, i32>(ref, dist, stride, width, height, csf, mask, globalVarScale, quadrantVarScale, work);
}
