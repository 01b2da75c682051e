// Integer VIF's WebAssembly SIMD kernels, in AssemblyScript (ADR 0040). They compute what
// src/cpu/vif-statistic.ts and src/cpu/vif-decimate.ts compute, bit for bit: those stay the
// readable specification, and the tests hold the two paths to each other and to libvmaf.
// Built by tools/build-wasm.ts into src/cpu/wasm/vif-kernels.wasm.ts.
//
// Memory is laid out by the caller (src/cpu/vif-wasm.ts): pictures are u16 planes (u8 at
// 8-bit scale 0) with
// mirrored rows above and below, rows are u16 (stored biased, as i16) with VIF_MAX_HALF
// samples of padding on the left and 40 on the right; every pointer below is a byte address
// of sample 0. The SIMD loops run in steps of 4 or 8 columns and may read and write up to
// 17 samples past a row's end (the padding, or slack the caller allocates), never using
// what they compute there.
//
// The horizontal passes are 16-bit dot products (i32x4.dot_i16x8_s, one instruction on
// x86 and Arm): the filters' taps go in pairs (src/numerics/paired-taps.ts) and each step
// multiplies two adjacent samples by two taps, so a step gives four columns of one parity.
// The samples are u16 biased to i16 (x - 2^15), which the taps' sum of 2^16 turns into
// -2^31 on every sum, taken off at the end (the sums wrap in i32 and come out exact).

/** libvmaf's sigma_nsq, 2.0 in 16.16 fixed point. */
const SIGMA_NSQ: i32 = 65536 << 1;
/** log2(SIGMA_NSQ) * 2048, taken off once per logged sample. */
const LOG2_SIGMA_NSQ: i64 = 2048 * 17;
const GAIN_EPSILON: f64 = 65536 * 1.0e-10;
const LOW16: v128 = i32x4.splat(0xffff);

// the current scale's sums (vif_statistic's accumulators)
let numLog: i64 = 0;
let denLog: i64 = 0;
let denNonLog: i64 = 0;
let nonLog: u64 = 0;

/** Where the caller may start laying out its buffers. */
export function heapBase(): usize {
  return __heap_base;
}

export function sumNumLog(): f64 {
  return <f64>numLog;
}
export function sumDenLog(): f64 {
  return <f64>denLog;
}
export function sumDenNonLog(): f64 {
  return <f64>denNonLog;
}
/** Σ sigma2_sq of the linear branch as two 32-bit halves (an unsigned 64-bit sum). */
export function sumNonLogHi(): f64 {
  return <f64>(nonLog >>> 32);
}
export function sumNonLogLo(): f64 {
  return <f64>(nonLog & 0xffffffff);
}

/** Rows -1..-half and height..height-1+half of a plane, mirrored (pad_top_and_bottom); `wide`: u16 samples, else u8. */
export function mirrorPlaneRows(plane: usize, stride: i32, width: i32, height: i32, half: i32, wide: bool): void {
  const sampleShift: usize = wide ? 1 : 0;
  const rowBytes = <usize>stride << sampleShift;
  const last = plane + <usize>(height - 1) * rowBytes;
  for (let i = 1; i <= half; i++) {
    const off = <usize>i * rowBytes;
    memory.copy(plane - off, plane + off, <usize>width << sampleShift);
    memory.copy(last + off, last - off, <usize>width << sampleShift);
  }
}

/** The u16 sample x as the i16 x - 2^15 (the dot products below multiply signed 16-bit lanes). */
const BIAS16: v128 = i16x8.splat(-32768);
/** Σ f * (x - 2^15) + 2^31 = Σ f * x, the taps summing to 2^16: the bias off a paired sum. */
const BIAS32: v128 = i32x4.splat(0x80000000);

/*
 * The vertical pass writes, per row, eight u16 rows (biased to i16) one `rowStep` apart: the
 * means mu1 and mu2 (below 2^16), then the low and high halves of the second moments
 * (u32) ref², dis² and ref * dis.
 */
const MU1 = 0;
const MU2 = 1;
const RR_LO = 2;
const RR_HI = 3;
const DD_LO = 4;
const DD_HI = 5;
const RD_LO = 6;
const RD_HI = 7;
const STAT_ROWS = 8;

/** Eight u32 lanes (two i32x4 below 2^16) as biased u16 lanes. */
@inline
function biased16(lo: v128, hi: v128): v128 {
  return v128.xor(i16x8.narrow_i32x4_u(lo, hi), BIAS16);
}

/** A u32 moment's low and high halves, eight lanes, to its two biased u16 rows. */
@inline
function storeMoment(at: usize, rowStep: usize, lo: v128, hi: v128): void {
  v128.store(at, biased16(v128.and(lo, LOW16), v128.and(hi, LOW16)));
  v128.store(at + rowStep, biased16(i32x4.shr_u(lo, 16), i32x4.shr_u(hi, 16)));
}

/** Lanes 0-3 of two i16x8 interleaved: a0 b0 a1 b1 a2 b2 a3 b3. */
@inline
function interleaveLow(a: v128, b: v128): v128 {
  return i8x16.shuffle(a, b, 0, 1, 16, 17, 2, 3, 18, 19, 4, 5, 20, 21, 6, 7, 22, 23);
}

/** Lanes 4-7 of two i16x8 interleaved. */
@inline
function interleaveHigh(a: v128, b: v128): v128 {
  return i8x16.shuffle(a, b, 8, 9, 24, 25, 10, 11, 26, 27, 12, 13, 28, 29, 14, 15, 30, 31);
}

/**
 * Vertical pass for 8-bit scale 0 (u8 planes), 8 columns a step, folded around the centre row: the
 * samples of rows k and taps-1-k (below 2^8) interleaved, one 16-bit dot product gives
 * f * (x + y) for the means, x² + y² and x * y + x' * y' for the second moments, which
 * are then multiplied by f. Every sum fits 32 bits (below 2^16 * 2^16), so every lane is
 * an exact u32; the second moments need no rounding at 8 bits.
 */
function verticalNarrow(ref: usize, dis: usize, stride: i32, width: i32, filter: usize, half: i32, muRound: u32, muShift: u32, rows: usize, rowStep: usize): void {
  const rowBytes = <usize>stride;
  const round = i32x4.splat(muRound);
  const zero = i32x4.splat(0);
  const centre = <usize>half * rowBytes;
  for (let j = 0; j < width; j += 8) {
    const p = <usize>j;
    // the centre row, paired with zeros
    const fc = load<i32>(filter + (<usize>half << 2));
    let tap = i32x4.splat(fc);
    let r = v128.load8x8_u(ref + centre + p);
    let d = v128.load8x8_u(dis + centre + p);
    let rl = interleaveLow(r, zero), rh = interleaveHigh(r, zero), dl = interleaveLow(d, zero), dh = interleaveHigh(d, zero);
    let m1l = i32x4.dot_i16x8_s(rl, tap), m1h = i32x4.dot_i16x8_s(rh, tap);
    let m2l = i32x4.dot_i16x8_s(dl, tap), m2h = i32x4.dot_i16x8_s(dh, tap);
    let rrl = i32x4.mul(i32x4.dot_i16x8_s(rl, rl), tap), rrh = i32x4.mul(i32x4.dot_i16x8_s(rh, rh), tap);
    let ddl = i32x4.mul(i32x4.dot_i16x8_s(dl, dl), tap), ddh = i32x4.mul(i32x4.dot_i16x8_s(dh, dh), tap);
    let rdl = i32x4.mul(i32x4.dot_i16x8_s(rl, dl), tap), rdh = i32x4.mul(i32x4.dot_i16x8_s(rh, dh), tap);
    for (let k = 0; k < half; k++) {
      // the same tap, in both halves of each lane (for the means) and whole (for the moments)
      const f = load<i32>(filter + (<usize>k << 2));
      const pair = i32x4.splat(f | (f << 16));
      tap = i32x4.splat(f);
      const top = <usize>k * rowBytes + p;
      const bottom = <usize>(2 * half - k) * rowBytes + p;
      const rt = v128.load8x8_u(ref + top), rb = v128.load8x8_u(ref + bottom);
      const dt = v128.load8x8_u(dis + top), db = v128.load8x8_u(dis + bottom);
      rl = interleaveLow(rt, rb);
      rh = interleaveHigh(rt, rb);
      dl = interleaveLow(dt, db);
      dh = interleaveHigh(dt, db);
      m1l = i32x4.add(m1l, i32x4.dot_i16x8_s(rl, pair));
      m1h = i32x4.add(m1h, i32x4.dot_i16x8_s(rh, pair));
      m2l = i32x4.add(m2l, i32x4.dot_i16x8_s(dl, pair));
      m2h = i32x4.add(m2h, i32x4.dot_i16x8_s(dh, pair));
      rrl = i32x4.add(rrl, i32x4.mul(i32x4.dot_i16x8_s(rl, rl), tap));
      rrh = i32x4.add(rrh, i32x4.mul(i32x4.dot_i16x8_s(rh, rh), tap));
      ddl = i32x4.add(ddl, i32x4.mul(i32x4.dot_i16x8_s(dl, dl), tap));
      ddh = i32x4.add(ddh, i32x4.mul(i32x4.dot_i16x8_s(dh, dh), tap));
      rdl = i32x4.add(rdl, i32x4.mul(i32x4.dot_i16x8_s(rl, dl), tap));
      rdh = i32x4.add(rdh, i32x4.mul(i32x4.dot_i16x8_s(rh, dh), tap));
    }
    const at = rows + (<usize>j << 1);
    v128.store(at + MU1 * rowStep, biased16(i32x4.shr_u(i32x4.add(m1l, round), muShift), i32x4.shr_u(i32x4.add(m1h, round), muShift)));
    v128.store(at + MU2 * rowStep, biased16(i32x4.shr_u(i32x4.add(m2l, round), muShift), i32x4.shr_u(i32x4.add(m2h, round), muShift)));
    storeMoment(at + RR_LO * rowStep, rowStep, rrl, rrh);
    storeMoment(at + DD_LO * rowStep, rowStep, ddl, ddh);
    storeMoment(at + RD_LO * rowStep, rowStep, rdl, rdh);
  }
}

/** (sum + round) >> shift of two i64x2 halves, narrowed to the low words of four lanes. */
@inline
function roundNarrow(lo: v128, hi: v128, round: v128, shift: u32): v128 {
  return i32x4.shuffle(i64x2.shr_u(i64x2.add(lo, round), shift), i64x2.shr_u(i64x2.add(hi, round), shift), 0, 2, 4, 6);
}

/** Four u32 lanes below 2^16 as biased u16 lanes, to the low 8 bytes at `at`. */
@inline
function storeBiased4(at: usize, v: v128): void {
  v128.store64_lane(at, biased16(v, v), 0);
}

/**
 * Vertical pass for any depth, 4 columns a step: the means stay below 2^32, the sums of
 * c * x * y (below 2^48) are kept in 64-bit lanes and rounded down to 32 bits.
 */
function verticalWide(ref: usize, dis: usize, stride: i32, width: i32, filter: usize, taps: i32, muRound: u32, muShift: u32, sqRound: u64, sqShift: u32, rows: usize, rowStep: usize): void {
  const rowBytes = <usize>stride << 1;
  const round = i32x4.splat(muRound);
  const sqRoundV = i64x2.splat(sqRound);
  for (let j = 0; j < width; j += 4) {
    let m1 = i32x4.splat(0), m2 = i32x4.splat(0);
    let rrl = i64x2.splat(0), rrh = i64x2.splat(0), ddl = i64x2.splat(0), ddh = i64x2.splat(0), rdl = i64x2.splat(0), rdh = i64x2.splat(0);
    let p = <usize>j << 1;
    for (let k = 0; k < taps; k++, p += rowBytes) {
      const c = i32x4.splat(load<i32>(filter + (<usize>k << 2)));
      const r = v128.load16x4_u(ref + p);
      const d = v128.load16x4_u(dis + p);
      const cr = i32x4.mul(c, r);
      const cd = i32x4.mul(c, d);
      m1 = i32x4.add(m1, cr);
      m2 = i32x4.add(m2, cd);
      rrl = i64x2.add(rrl, i64x2.extmul_low_i32x4_u(cr, r));
      rrh = i64x2.add(rrh, i64x2.extmul_high_i32x4_u(cr, r));
      ddl = i64x2.add(ddl, i64x2.extmul_low_i32x4_u(cd, d));
      ddh = i64x2.add(ddh, i64x2.extmul_high_i32x4_u(cd, d));
      rdl = i64x2.add(rdl, i64x2.extmul_low_i32x4_u(cr, d));
      rdh = i64x2.add(rdh, i64x2.extmul_high_i32x4_u(cr, d));
    }
    const at = rows + (<usize>j << 1);
    storeBiased4(at + MU1 * rowStep, i32x4.shr_u(i32x4.add(m1, round), muShift));
    storeBiased4(at + MU2 * rowStep, i32x4.shr_u(i32x4.add(m2, round), muShift));
    const rr = roundNarrow(rrl, rrh, sqRoundV, sqShift);
    const dd = roundNarrow(ddl, ddh, sqRoundV, sqShift);
    const rd = roundNarrow(rdl, rdh, sqRoundV, sqShift);
    storeBiased4(at + RR_LO * rowStep, v128.and(rr, LOW16));
    storeBiased4(at + RR_HI * rowStep, i32x4.shr_u(rr, 16));
    storeBiased4(at + DD_LO * rowStep, v128.and(dd, LOW16));
    storeBiased4(at + DD_HI * rowStep, i32x4.shr_u(dd, 16));
    storeBiased4(at + RD_LO * rowStep, v128.and(rd, LOW16));
    storeBiased4(at + RD_HI * rowStep, i32x4.shr_u(rd, 16));
  }
}

/** The high word of x * y + 2^31 for four u32 lanes: libvmaf's rounded (x * y) >> 32. */
@inline
function roundedHighProduct(x: v128, y: v128): v128 {
  const half = i64x2.splat(0x80000000);
  return i32x4.shuffle(i64x2.add(i64x2.extmul_low_i32x4_u(x, y), half), i64x2.add(i64x2.extmul_high_i32x4_u(x, y), half), 1, 3, 5, 7);
}

/** A u32 moment from its halves' filtered sums: H + ((L + 2^15) >> 16) is (Σ f * x + 2^15) >> 16. */
@inline
function joinMoment(lo: v128, hi: v128): v128 {
  return i32x4.add(v128.xor(hi, BIAS32), i32x4.shr_u(i32x4.add(v128.xor(lo, BIAS32), i32x4.splat(32768)), 16));
}

/** The high words of two f64x2: four doubles' sign, exponent and top 20 mantissa bits. */
@inline
function highWords(lo: v128, hi: v128): v128 {
  return i32x4.shuffle(lo, hi, 1, 3, 5, 7);
}

/**
 * libvmaf's log2_32 / log2_64 (log2(x) * 2048 from x's top 16 bits) splits, for an integer
 * x of at least 2^16 held exactly in a double, into the shift k = msb - 15 (the exponent)
 * and table[x >> k] (the mantissa's top 15 bits under the leading 1). These give, from four
 * such doubles' high words, k where `mask` is set (else 0) and the table entry's byte offset
 * where it is set (else that of entry 1, which is 0).
 */
@inline
function log2Shift(words: v128, mask: v128): v128 {
  return v128.and(i32x4.sub(i32x4.shr_u(words, 20), i32x4.splat(1023 + 15)), mask);
}

@inline
function log2Index(words: v128, mask: v128): v128 {
  return v128.bitselect(v128.or(v128.and(i32x4.shr_u(words, 4), i32x4.splat(0x7fff << 1)), i32x4.splat(0x8000 << 1)), i32x4.splat(2), mask);
}

/** Σ table[index] over four lanes (`index` as byte offsets, two i64 lanes read as scalars and split). */
@inline
function tableSum(index: v128, table: usize): i32 {
  const a = i64x2.extract_lane(index, 0);
  const b = i64x2.extract_lane(index, 1);
  return (
    <i32>load<u16>(table + <usize>(<u32>a)) +
    <i32>load<u16>(table + <usize>(<u32>(a >>> 32))) +
    <i32>load<u16>(table + <usize>(<u32>b)) +
    <i32>load<u16>(table + <usize>(<u32>(b >>> 32)))
  );
}

/** Lanes 2 and 3 of an i32x4 moved to lanes 0 and 1 (WebAssembly converts only the low two to f64x2). */
@inline
function highHalf(v: v128): v128 {
  return i32x4.shuffle(v, v, 2, 3, 2, 3);
}

/**
 * Two samples' log2 arguments, in f64x2 where the TypeScript reference computes in doubles
 * (the same IEEE operations in the same order): the gain, then numer1 (returned) and the
 * numerator's argument numer1 + gain² * sigma1_sq (in `numer1Tmp`).
 */
let numer1Tmp: v128 = f64x2.splat(0);

@inline
function numerators(s1: v128, sigma2Sq: v128, sigma12: v128, gainLimit: v128): v128 {
  const s12 = f64x2.convert_low_i32x4_s(sigma12);
  const g = f64x2.div(s12, f64x2.add(s1, f64x2.splat(GAIN_EPSILON)));
  // svSq is below 2^31 when positive (sigma2_sq is, and g * sigma12 is not negative); numer1 as uint32
  const svSq = f64x2.sub(f64x2.convert_low_i32x4_s(sigma2Sq), f64x2.mul(g, s12));
  const nsq = f64x2.splat(<f64>SIGMA_NSQ);
  const numer1 = v128.bitselect(f64x2.add(f64x2.trunc(svSq), nsq), nsq, f64x2.gt(svSq, f64x2.splat(0)));
  const gain = v128.bitselect(gainLimit, g, f64x2.gt(g, gainLimit));
  numer1Tmp = f64x2.add(f64x2.floor(f64x2.mul(f64x2.mul(gain, gain), s1)), numer1);
  return numer1;
}

// the current row's sums, kept apart from the scale's (statisticColumns adds to them)
let rowNumTable: i32 = 0; // Σ table entries of the numerator terms (numer1Tmp's minus numer1's)
let rowDenTable: i32 = 0;
let rowNumShift: v128 = i32x4.splat(0); // Σ shifts k, per lane
let rowDenShift: v128 = i32x4.splat(0);
let rowLogCount: v128 = i32x4.splat(0); // minus the count, per lane (masks are -1)
let rowLinearCount: v128 = i32x4.splat(0);
let rowLinearSum: v128 = i64x2.splat(0);

/**
 * The horizontal pass for four columns of one parity (`at`: the first one's byte address in
 * the mu1 row): each statistic's filter as paired taps (src/numerics/paired-taps.ts), a dot
 * product of two taps and two adjacent samples per step, in biased i16 (the sums wrap in
 * i32 and come out exact); then sigma1_sq, sigma2_sq (clamped at 0) and sigma12 as int32
 * like libvmaf's casts, stored at `out` in the three sigma rows, `sigmaStep` bytes apart.
 */
@inline
function horizontalColumns(at: usize, rowStep: usize, pairs: usize, pairCount: i32, out: usize, sigmaStep: usize): void {
  let a0 = i32x4.splat(0), a1 = i32x4.splat(0), a2 = i32x4.splat(0), a3 = i32x4.splat(0);
  let a4 = i32x4.splat(0), a5 = i32x4.splat(0), a6 = i32x4.splat(0), a7 = i32x4.splat(0);
  for (let e = 0; e < pairCount; e++) {
    const entry = pairs + (<usize>e << 3);
    const p = at + <usize>load<i32>(entry);
    const t = v128.load32_splat(entry + 4);
    a0 = i32x4.add(a0, i32x4.dot_i16x8_s(v128.load(p), t));
    a1 = i32x4.add(a1, i32x4.dot_i16x8_s(v128.load(p + rowStep), t));
    a2 = i32x4.add(a2, i32x4.dot_i16x8_s(v128.load(p + 2 * rowStep), t));
    a3 = i32x4.add(a3, i32x4.dot_i16x8_s(v128.load(p + 3 * rowStep), t));
    a4 = i32x4.add(a4, i32x4.dot_i16x8_s(v128.load(p + 4 * rowStep), t));
    a5 = i32x4.add(a5, i32x4.dot_i16x8_s(v128.load(p + 5 * rowStep), t));
    a6 = i32x4.add(a6, i32x4.dot_i16x8_s(v128.load(p + 6 * rowStep), t));
    a7 = i32x4.add(a7, i32x4.dot_i16x8_s(v128.load(p + 7 * rowStep), t));
  }
  const m1 = v128.xor(a0, BIAS32);
  const m2 = v128.xor(a1, BIAS32);
  v128.store(out, i32x4.sub(joinMoment(a2, a3), roundedHighProduct(m1, m1)));
  v128.store(out + sigmaStep, i32x4.max_s(i32x4.sub(joinMoment(a4, a5), roundedHighProduct(m2, m2)), i32x4.splat(0)));
  v128.store(out + 2 * sigmaStep, i32x4.sub(joinMoment(a6, a7), roundedHighProduct(m1, m2)));
}

/**
 * Four columns' terms from their sigmas (`lanes`: their column numbers minus the step's
 * first, `remaining`: the columns from there to the row's end): each sample's log2 terms
 * (where sigma1_sq reaches sigma_nsq) or linear term. A loop of its own, apart from the
 * horizontal pass, so that the terms' long chains of dependent operations (a division,
 * roundings, table reads) of one step overlap the next step's.
 */
@inline
function termColumns(at: usize, sigmaStep: usize, remaining: i32, lanes: v128, table: usize, limit: v128): void {
  const sigma1Sq = v128.load(at);
  const sigma2Sq = v128.load(at + sigmaStep);
  const sigma12 = v128.load(at + 2 * sigmaStep);
  const nsq = i32x4.splat(SIGMA_NSQ);
  const zero = i32x4.splat(0);
  const valid = i32x4.gt_s(i32x4.splat(remaining), lanes);
  const log = v128.and(i32x4.ge_s(sigma1Sq, nsq), valid);
  const linear = v128.andnot(valid, log);
  rowLogCount = i32x4.add(rowLogCount, log);
  rowLinearCount = i32x4.add(rowLinearCount, linear);
  const linearSigma2 = v128.and(sigma2Sq, linear);
  rowLinearSum = i64x2.add(rowLinearSum, i64x2.add(i64x2.extend_low_i32x4_u(linearSigma2), i64x2.extend_high_i32x4_u(linearSigma2)));
  if (!v128.any_true(log)) return;

  // log2(sigma_nsq + sigma1_sq) where `log` is set: log2_32's argument, read as uint32; where
  // `log` is set sigma1_sq is at least sigma_nsq, so the sum as a double is that uint32 exactly
  const nsqF = f64x2.splat(<f64>SIGMA_NSQ);
  const s1Low = f64x2.convert_low_i32x4_s(sigma1Sq);
  const s1High = f64x2.convert_low_i32x4_s(highHalf(sigma1Sq));
  const denWords = highWords(f64x2.add(s1Low, nsqF), f64x2.add(s1High, nsqF));
  rowDenShift = i32x4.add(rowDenShift, log2Shift(denWords, log));
  rowDenTable += tableSum(log2Index(denWords, log), table);

  // log2(numer1Tmp) - log2(numer1) where sigma12 and sigma2_sq are positive too
  const num = v128.and(log, v128.and(i32x4.gt_s(sigma12, zero), i32x4.gt_s(sigma2Sq, zero)));
  if (!v128.any_true(num)) return;
  const numer1Low = numerators(s1Low, sigma2Sq, sigma12, limit);
  const tmpLow = numer1Tmp;
  const numer1High = numerators(s1High, highHalf(sigma2Sq), highHalf(sigma12), limit);
  const tmpWords = highWords(tmpLow, numer1Tmp);
  const numer1Words = highWords(numer1Low, numer1High);
  rowNumShift = i32x4.add(rowNumShift, i32x4.sub(log2Shift(tmpWords, num), log2Shift(numer1Words, num)));
  rowNumTable += tableSum(log2Index(tmpWords, num), table) - tableSum(log2Index(numer1Words, num), table);
}

/** Σ of an i32x4's lanes. */
@inline
function laneSum(v: v128): i32 {
  return i32x4.extract_lane(v, 0) + i32x4.extract_lane(v, 1) + i32x4.extract_lane(v, 2) + i32x4.extract_lane(v, 3);
}

/**
 * The horizontal pass over one vertically filtered row, eight columns a step (the even
 * columns, then the odd ones: the sums do not care which order the samples come in), into
 * the sigma rows at `sigmas`; then the row's terms.
 */
function statisticRow(width: i32, rows: usize, rowStep: usize, pairs: usize, pairCount: i32, sigmas: usize, sigmaStep: usize, table: usize, gainLimit: f64): void {
  for (let j = 0; j < width; j += 8) {
    const at = rows + (<usize>j << 1);
    const out = sigmas + (<usize>j << 2);
    horizontalColumns(at, rowStep, pairs, pairCount, out, sigmaStep);
    horizontalColumns(at + 2, rowStep, pairs, pairCount, out + 16, sigmaStep);
  }
  const limit = f64x2.splat(gainLimit);
  const even = i32x4(0, 2, 4, 6);
  const odd = i32x4(1, 3, 5, 7);
  rowNumTable = 0;
  rowDenTable = 0;
  rowNumShift = i32x4.splat(0);
  rowDenShift = i32x4.splat(0);
  rowLogCount = i32x4.splat(0);
  rowLinearCount = i32x4.splat(0);
  rowLinearSum = i64x2.splat(0);
  for (let j = 0; j < width; j += 8) {
    const at = sigmas + (<usize>j << 2);
    termColumns(at, sigmaStep, width - j, even, table, limit);
    termColumns(at + 16, sigmaStep, width - j, odd, table, limit);
  }
  const logs = -<i64>laneSum(rowLogCount);
  numLog += <i64>rowNumTable + (<i64>laneSum(rowNumShift) << 11);
  denLog += <i64>rowDenTable + (<i64>laneSum(rowDenShift) << 11) - logs * LOG2_SIGMA_NSQ;
  denNonLog -= <i64>laneSum(rowLinearCount);
  nonLog += <u64>(i64x2.extract_lane(rowLinearSum, 0) + i64x2.extract_lane(rowLinearSum, 1));
}

/** Samples -1..-half and width..width-1+half of a u16 row, mirrored. */
function mirrorRow16(row: usize, width: i32, half: i32): void {
  const last = row + (<usize>(width - 1) << 1);
  for (let f = 1; f <= half; f++) {
    const off = <usize>f << 1;
    store<u16>(row - off, load<u16>(row + off));
    store<u16>(last + off, load<u16>(last - off));
  }
}

/**
 * One scale's sums (vif_statistic): per row, the vertical pass (narrow: 8-bit scale 0)
 * into the eight statistic rows at `rows`, `rowStep` bytes apart, their mirrored ends, and
 * the horizontal pass with the statistics (`pairs`: this filter's paired taps). Read the
 * sums back with sum*().
 */
export function statisticScale(
  ref: usize, dis: usize, stride: i32, width: i32, height: i32,
  filter: usize, half: i32, narrow: bool, muRound: u32, muShift: u32, sqRound: u32, sqShift: u32,
  rows: usize, rowStep: usize, pairs: usize, pairCount: i32,
  table: usize, gainLimit: f64,
): void {
  numLog = 0;
  denLog = 0;
  denNonLog = 0;
  nonLog = 0;
  const taps = 2 * half + 1;
  const rowBytes = <usize>stride << (narrow ? 0 : 1);
  for (let i = 0; i < height; i++) {
    const top = <usize>(i - half) * rowBytes;
    if (narrow) verticalNarrow(ref + top, dis + top, stride, width, filter, half, muRound, muShift, rows, rowStep);
    else verticalWide(ref + top, dis + top, stride, width, filter, taps, muRound, muShift, <u64>sqRound, sqShift, rows, rowStep);
    for (let r = 0; r < STAT_ROWS; r++) mirrorRow16(rows + <usize>r * rowStep, width, half);
    statisticRow(width, rows, rowStep, pairs, pairCount, rows + STAT_ROWS * rowStep, rowStep << 1, table, gainLimit);
  }
}

/** Vertical pass of one plane's row for decimation: (Σ f * x + round) >> shift, four columns a step, to a biased u16 row. */
function decimateColumns(plane: usize, stride: i32, width: i32, filter: usize, half: i32, round: u32, shift: u32, out: usize): void {
  const rowBytes = <usize>stride << 1;
  const roundV = i32x4.splat(round);
  const f0 = i32x4.splat(load<i32>(filter + (<usize>half << 2)));
  for (let j = 0; j < width; j += 4) {
    const p = plane + (<usize>j << 1);
    let acc = i32x4.mul(f0, v128.load16x4_u(p));
    for (let k = 1; k <= half; k++) {
      const f = i32x4.splat(load<i32>(filter + (<usize>(half - k) << 2)));
      const off = <usize>k * rowBytes;
      acc = i32x4.add(acc, i32x4.mul(f, i32x4.add(v128.load16x4_u(p - off), v128.load16x4_u(p + off))));
    }
    storeBiased4(out + (<usize>j << 1), i32x4.shr_u(i32x4.add(acc, roundV), shift));
  }
}

/** decimateColumns for u8 planes (8-bit scale 0), 8 columns a step: x + y of the folded rows fits 16 bits. */
function decimateColumns8(plane: usize, stride: i32, width: i32, filter: usize, half: i32, round: u32, shift: u32, out: usize): void {
  const rowBytes = <usize>stride;
  const roundV = i32x4.splat(round);
  const f0 = i16x8.splat(<i16>load<i32>(filter + (<usize>half << 2)));
  for (let j = 0; j < width; j += 8) {
    const p = plane + <usize>j;
    const centre = v128.load8x8_u(p);
    let lo = i32x4.extmul_low_i16x8_u(f0, centre);
    let hi = i32x4.extmul_high_i16x8_u(f0, centre);
    for (let k = 1; k <= half; k++) {
      const f = i16x8.splat(<i16>load<i32>(filter + (<usize>(half - k) << 2)));
      const off = <usize>k * rowBytes;
      const sum = i16x8.add(v128.load8x8_u(p - off), v128.load8x8_u(p + off));
      lo = i32x4.add(lo, i32x4.extmul_low_i16x8_u(f, sum));
      hi = i32x4.add(hi, i32x4.extmul_high_i16x8_u(f, sum));
    }
    v128.store(out + (<usize>j << 1), biased16(i32x4.shr_u(i32x4.add(lo, roundV), shift), i32x4.shr_u(i32x4.add(hi, roundV), shift)));
  }
}

/** Horizontal pass for decimation on the even columns of a mirrored biased row, (Σ f * x + 2^15) >> 16, four a step. */
function decimateRow(row: usize, pairs: usize, pairCount: i32, target: usize, toWidth: i32): void {
  const round = i32x4.splat(32768);
  for (let c = 0; c < toWidth; c += 4) {
    const at = row + (<usize>c << 2);
    let acc = i32x4.splat(0);
    for (let e = 0; e < pairCount; e++) {
      const entry = pairs + (<usize>e << 3);
      acc = i32x4.add(acc, i32x4.dot_i16x8_s(v128.load(at + <usize>load<i32>(entry)), v128.load32_splat(entry + 4)));
    }
    const v = i32x4.shr_u(i32x4.add(v128.xor(acc, BIAS32), round), 16);
    v128.store64_lane(target + (<usize>c << 1), i16x8.narrow_i32x4_u(v, v), 0);
  }
}

/**
 * The next scale of the pyramid (subsample_rd): the kept rows and columns of scale s
 * blurred with scale s+1's filter (`pairs`: its paired taps); then the new plane's rows
 * mirrored for its own filter. The rows it writes past toWidth are the next row's, or
 * padding, written again afterwards.
 */
export function decimate(
  fromRef: usize, fromDis: usize, fromStride: i32, width: i32,
  toRef: usize, toDis: usize, toStride: i32, toWidth: i32, toHeight: i32, toPad: i32,
  filter: usize, half: i32, round: u32, shift: u32, pairs: usize, pairCount: i32, rowA: usize, rowB: usize, fromNarrow: bool,
): void {
  const fromRowBytes = <usize>fromStride << (fromNarrow ? 0 : 1);
  const toRowBytes = <usize>toStride << 1;
  for (let r = 0; r < toHeight; r++) {
    const mid = <usize>(2 * r) * fromRowBytes;
    if (fromNarrow) {
      decimateColumns8(fromRef + mid, fromStride, width, filter, half, round, shift, rowA);
      decimateColumns8(fromDis + mid, fromStride, width, filter, half, round, shift, rowB);
    } else {
      decimateColumns(fromRef + mid, fromStride, width, filter, half, round, shift, rowA);
      decimateColumns(fromDis + mid, fromStride, width, filter, half, round, shift, rowB);
    }
    mirrorRow16(rowA, width, half);
    mirrorRow16(rowB, width, half);
    const target = <usize>r * toRowBytes;
    decimateRow(rowA, pairs, pairCount, toRef + target, toWidth);
    decimateRow(rowB, pairs, pairCount, toDis + target, toWidth);
  }
  mirrorPlaneRows(toRef, toStride, toWidth, toHeight, toPad, true);
  mirrorPlaneRows(toDis, toStride, toWidth, toHeight, toPad, true);
}
