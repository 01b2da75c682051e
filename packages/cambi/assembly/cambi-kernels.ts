// CAMBI's WebAssembly SIMD kernels, in AssemblyScript (ADR 0040). They compute what
// src/cpu/c-values.ts with code-runs.ts, spatial-mask.ts, mode-filter.ts and
// numerics/preprocess.ts's antiDitheredFrom8Bit compute, bit for bit: those stay the
// readable specification, and the tests hold the two paths to each other and to libvmaf.
// Built by tools/build-wasm.ts into src/cpu/wasm/cambi-kernels.wasm.ts.
//
// Memory is laid out by the caller (src/cpu/cambi-wasm.ts), every pointer a byte address:
// the three working pictures (u16), the mask spans, the plan's tables (visible steps per
// band code, their first step, the contrast weights, the float reciprocal table), the
// sliding histograms (u16, `histRows` rows of the current width, zero rows above and below
// the band so no step indexes outside), a ring of the code runs of the 2·pad + 2 rows the
// window covers (one row's runs per slot, at most `width` of them), the sparse c-value list
// (room for one per pixel), the mask's and the mode filter's rows and an 8-bit luma plane.
// Every buffer is followed by 16 bytes of slack.
//
// Exactness: the counts are integers of at most 65² = 4225 (the plan refuses larger
// windows), so the i16 adds of the histograms (which wrap like the reference's Uint16Array
// when a removal runs first) end on the same values; a c-value is (float)(w · p0 · pmax)
// times the float reciprocal of p0 + pmax: the product is below 9 · 4225² < 2^31, converted
// with one rounding like Math.fround of the exact double, and f32 multiplication rounds
// once like Math.fround of the (exact) double product of two floats.

// ---------------------------------------------------------------------------------------
// The plan, set by configure()

let steps: usize = 0; // u32 per band code: bit d when step d + 1 is visible there
let firstStep: usize = 0; // u8 per band code: its lowest visible step
let weights: usize = 0; // i32 per step
let reciprocal: usize = 0; // f32 per count
let numDiffs: i32 = 0;
let bandBase: i32 = 0;
let bandSize: i32 = 0;
let hist: usize = 0;
let histRows: i32 = 0;
let ringStart: usize = 0; // i32 [slot][run]
let ringEnd: usize = 0;
let ringCode: usize = 0;
let ringCount: usize = 0; // i32 per slot
let ringSlots: i32 = 0;
let ringCapacity: i32 = 0;
let positions: usize = 0; // i32 per c-value
let values: usize = 0; // f32 per c-value

/** Where the caller may start laying out its buffers. */
export function heapBase(): usize {
  return __heap_base;
}

/**
 * The plan's tables and the buffers, laid out by the caller once per format; the ring has
 * `slots` slots of `capacity` runs (slots ≥ 2·pad + 2 for every window used).
 */
export function configure(
  stepsAt: usize, firstStepAt: usize, weightsAt: usize, reciprocalAt: usize, diffs: i32, base: i32, size: i32,
  histAt: usize, rows: i32, startAt: usize, endAt: usize, codeAt: usize, countAt: usize, slots: i32, capacity: i32,
  positionsAt: usize, valuesAt: usize,
): void {
  steps = stepsAt;
  firstStep = firstStepAt;
  weights = weightsAt;
  reciprocal = reciprocalAt;
  numDiffs = diffs;
  bandBase = base;
  bandSize = size;
  hist = histAt;
  histRows = rows;
  ringStart = startAt;
  ringEnd = endAt;
  ringCode = codeAt;
  ringCount = countAt;
  ringSlots = slots;
  ringCapacity = capacity;
  positions = positionsAt;
  values = valuesAt;
}

// the picture being scored
let image: usize = 0;
let spanRow: usize = 0;
let spanStart: usize = 0;
let spanEnd: usize = 0;
let width: i32 = 0;
let pad: i32 = 0;
let count: i32 = 0;
let total: f64 = 0;

/** How many c-values the last compute() wrote (positions and values at the configured addresses). */
export function cValueCount(): i32 {
  return count;
}

/** Their sum in double, in row-major order, as the reference sums it. */
export function cValueSum(): f64 {
  return total;
}

/**
 * c-values.ts's CValues.compute: the c-values of the `w`×`h` u16 picture at `picture`, over
 * the mask spans (rowStart: h + 1 i32, start and end: i32 per span), window 2·`half` + 1.
 */
export function compute(picture: usize, rowStartAt: usize, startAt: usize, endAt: usize, w: i32, h: i32, half: i32): void {
  image = picture;
  spanRow = rowStartAt;
  spanStart = startAt;
  spanEnd = endAt;
  width = w;
  pad = half;
  count = 0;
  total = 0;
  memory.fill(hist, 0, <usize>(histRows * w) << 1);
  for (let r = 0; r < half && r < h; r++) buildRuns(r);
  for (let r = 0; r < half; r++) slide(r < h ? r : -1, -1);
  for (let i = 0; i < h; i++) {
    const add = i + half < h ? i + half : -1;
    if (add >= 0) buildRuns(add);
    slide(add, i - half - 1);
    cValuesRow(i);
  }
}

// ---------------------------------------------------------------------------------------
// Code runs (code-runs.ts), one row at a time into its ring slot

@inline
function slotOf(row: i32): i32 {
  return row % ringSlots;
}

/** The runs of equal in-band codes under row `y`'s mask spans, as histogram rows (code − bandBase + numDiffs). */
function buildRuns(y: i32): void {
  const slot = slotOf(y);
  const base = <usize>(slot * ringCapacity) << 2;
  const row = image + (<usize>(y * width) << 1);
  let n = 0;
  for (let s = load<i32>(spanRow + (<usize>y << 2)), last = load<i32>(spanRow + (<usize>(y + 1) << 2)); s < last; s++) {
    const stop = load<i32>(spanEnd + (<usize>s << 2)) + 1;
    let k = load<i32>(spanStart + (<usize>s << 2));
    while (k < stop) {
      const v = <i32>load<u16>(row + (<usize>k << 1));
      const k1 = runEnd(row, k + 1, stop, v);
      const u = v - bandBase;
      if (<u32>u < <u32>bandSize) {
        const at = base + (<usize>n << 2);
        store<i32>(ringStart + at, k);
        store<i32>(ringEnd + at, k1 - 1);
        store<i32>(ringCode + at, u + numDiffs);
        n++;
      }
      k = k1;
    }
  }
  store<i32>(ringCount + (<usize>slot << 2), n);
}

/** The first column from `k` on (below `stop`) whose sample is not `v`: eight samples a step. */
@inline
function runEnd(row: usize, k: i32, stop: i32, v: i32): i32 {
  const splat = i16x8.splat(<i16>v);
  while (k + 8 <= stop) {
    const differ = i16x8.bitmask(v128.not(i16x8.eq(v128.load(row + (<usize>k << 1)), splat)));
    if (differ != 0) return k + ctz(differ);
    k += 8;
  }
  while (k < stop && <i32>load<u16>(row + (<usize>k << 1)) == v) k++;
  return k;
}

// ---------------------------------------------------------------------------------------
// Sliding histograms (c-values.ts's slide, piece, flushPiece and trapezoid)

const NONE: i32 = 0x7fffffff;
// the piece being merged, per side (0 adds, 1 removes; code -1: none)
let pendingCode0: i32 = -1;
let pendingStart0: i32 = 0;
let pendingEnd0: i32 = 0;
let pendingCode1: i32 = -1;
let pendingStart1: i32 = 0;
let pendingEnd1: i32 = 0;

/** Adds row `add`'s runs and removes row `remove`'s (-1: none); where both hold the same code nothing is done. */
function slide(add: i32, remove: i32): void {
  const sa = add >= 0 ? <usize>(slotOf(add) * ringCapacity) << 2 : 0;
  const sb = remove >= 0 ? <usize>(slotOf(remove) * ringCapacity) << 2 : 0;
  let ia: usize = sa;
  const ea: usize = add >= 0 ? sa + (<usize>load<i32>(ringCount + (<usize>slotOf(add) << 2)) << 2) : 0;
  let ib: usize = sb;
  const eb: usize = remove >= 0 ? sb + (<usize>load<i32>(ringCount + (<usize>slotOf(remove) << 2)) << 2) : 0;
  let pos = 0;
  while (ia < ea || ib < eb) {
    const as = ia < ea ? max(load<i32>(ringStart + ia), pos) : NONE;
    const bs = ib < eb ? max(load<i32>(ringStart + ib), pos) : NONE;
    if (as == bs) {
      const ae = load<i32>(ringEnd + ia);
      const be = load<i32>(ringEnd + ib);
      const e = ae < be ? ae : be;
      const ca = load<i32>(ringCode + ia);
      const cb = load<i32>(ringCode + ib);
      if (ca != cb) {
        piece0(ca, as, e);
        piece1(cb, as, e);
      }
      pos = e + 1;
      if (ae == e) ia += 4;
      if (be == e) ib += 4;
    } else if (as < bs) {
      const ae = load<i32>(ringEnd + ia);
      const e = ae < bs - 1 ? ae : bs - 1;
      piece0(load<i32>(ringCode + ia), as, e);
      pos = e + 1;
      if (ae == e) ia += 4;
    } else {
      const be = load<i32>(ringEnd + ib);
      const e = be < as - 1 ? be : as - 1;
      piece1(load<i32>(ringCode + ib), bs, e);
      pos = e + 1;
      if (be == e) ib += 4;
    }
  }
  if (pendingCode0 >= 0) trapezoid(pendingCode0, pendingStart0, pendingEnd0, 1);
  if (pendingCode1 >= 0) trapezoid(pendingCode1, pendingStart1, pendingEnd1, -1);
  pendingCode0 = -1;
  pendingCode1 = -1;
}

@inline
function piece0(row: i32, x0: i32, x1: i32): void {
  if (pendingCode0 == row && pendingEnd0 + 1 == x0) {
    pendingEnd0 = x1;
    return;
  }
  if (pendingCode0 >= 0) trapezoid(pendingCode0, pendingStart0, pendingEnd0, 1);
  pendingCode0 = row;
  pendingStart0 = x0;
  pendingEnd0 = x1;
}

@inline
function piece1(row: i32, x0: i32, x1: i32): void {
  if (pendingCode1 == row && pendingEnd1 + 1 == x0) {
    pendingEnd1 = x1;
    return;
  }
  if (pendingCode1 >= 0) trapezoid(pendingCode1, pendingStart1, pendingEnd1, -1);
  pendingCode1 = row;
  pendingStart1 = x0;
  pendingEnd1 = x1;
}

// column offsets of the lanes
const RAMP: v128 = i16x8(0, 1, 2, 3, 4, 5, 6, 7);
const LANE_INDEX: v128 = i32x4(0, 1, 2, 3);

/**
 * Adds `sign` per pixel of columns [x0, x1] of histogram row `row` to every column within
 * `pad` of it: min(c + pad, x1) − max(c − pad, x0) + 1 at column c (a ramp up, a flat
 * part, a ramp down), computed per lane from that closed form, eight columns a step in
 * i16 lanes (columns are below 2^15; the adds wrap mod 2^16, as the reference's u16 stores
 * do). Lanes past the window add max(…, 0) = 0 and lanes past the row are masked off, so
 * the last step may run up to seven columns on (into the slack after the last row).
 */
function trapezoid(row: i32, x0: i32, x1: i32, sign: i32): void {
  const base = hist + (<usize>(row * width) << 1);
  const lo = x0 - pad > 0 ? x0 - pad : 0;
  const end = x1 + pad < width - 1 ? x1 + pad + 1 : width;
  const padV = i16x8.splat(<i16>pad);
  const x0V = i16x8.splat(<i16>x0);
  const x1V = i16x8.splat(<i16>x1);
  const widthV = i16x8.splat(<i16>width);
  const zero = i16x8.splat(0);
  const one = i16x8.splat(1);
  let columns = i16x8.add(i16x8.splat(<i16>lo), RAMP);
  const eight = i16x8.splat(8);
  for (let c = lo; c < end; c += 8) {
    const right = i16x8.min_s(i16x8.add(columns, padV), x1V);
    const left = i16x8.max_s(i16x8.sub(columns, padV), x0V);
    const amount = v128.and(i16x8.max_s(i16x8.add(i16x8.sub(right, left), one), zero), i16x8.lt_s(columns, widthV));
    const at = base + (<usize>c << 1);
    const h = v128.load(at);
    v128.store(at, sign > 0 ? i16x8.add(h, amount) : i16x8.sub(h, amount));
    columns = i16x8.add(columns, eight);
  }
}

// ---------------------------------------------------------------------------------------
// c-values of one row (c-values.ts's cValuesRow)

/**
 * For every pixel of row `i`'s runs whose code has visible steps: the largest
 * w_d · p0 · pmax / (p0 + pmax) over those steps, pmax the larger count d + 1 codes up or
 * down; four pixels a step in i32 and f32 lanes, the reciprocal read per lane. Non-zero
 * ones are appended (position, value) in column order and summed in double.
 */
function cValuesRow(i: i32): void {
  const slot = slotOf(i);
  const base = <usize>(slot * ringCapacity) << 2;
  const runs = load<i32>(ringCount + (<usize>slot << 2));
  const rowAt = i * width;
  let n = count;
  let sum: f64 = 0;
  for (let j = 0; j < runs; j++) {
    const r = base + (<usize>j << 2);
    const code = load<i32>(ringCode + r);
    const bits = load<u32>(steps + (<usize>(code - numDiffs) << 2));
    if (bits == 0) continue;
    const d0 = <i32>load<u8>(firstStep + <usize>(code - numDiffs));
    const x1 = load<i32>(ringEnd + r);
    let x = load<i32>(ringStart + r);
    const centre = hist + (<usize>(code * width) << 1);
    for (; x + 4 <= x1 + 1; x += 4) {
      const at = centre + (<usize>x << 1);
      const p0 = v128.load16x4_u(at);
      let c = f32x4.splat(0);
      for (let d = d0; d < numDiffs; d++) {
        if ((bits & (1 << d)) == 0) continue;
        const step = <usize>((d + 1) * width) << 1;
        const pm = i32x4.max_u(v128.load16x4_u(at + step), v128.load16x4_u(at - step));
        // no neighbour d + 1 codes away in any lane: every value is 0
        if (!v128.any_true(pm)) continue;
        const product = f32x4.convert_i32x4_s(i32x4.mul(i32x4.mul(p0, i32x4.splat(load<i32>(weights + (<usize>d << 2)))), pm));
        const sums = i32x4.add(p0, pm);
        let inverse = f32x4.splat(load<f32>(reciprocal + (<usize>i32x4.extract_lane(sums, 0) << 2)));
        inverse = f32x4.replace_lane(inverse, 1, load<f32>(reciprocal + (<usize>i32x4.extract_lane(sums, 1) << 2)));
        inverse = f32x4.replace_lane(inverse, 2, load<f32>(reciprocal + (<usize>i32x4.extract_lane(sums, 2) << 2)));
        inverse = f32x4.replace_lane(inverse, 3, load<f32>(reciprocal + (<usize>i32x4.extract_lane(sums, 3) << 2)));
        // every value is ≥ 0 and none is NaN: max is the reference's `if (val > c) c = val`
        c = f32x4.max(c, f32x4.mul(product, inverse));
      }
      if (i32x4.all_true(c)) {
        // four non-zero values (a float ≥ 0 is non-zero where its bits are): stored as vectors
        v128.store(positions + (<usize>n << 2), i32x4.add(i32x4.splat(rowAt + x), LANE_INDEX));
        v128.store(values + (<usize>n << 2), c);
        n += 4;
        sum = sumOf(sum, c);
      } else if (v128.any_true(c)) {
        n = emit(n, rowAt + x, f32x4.extract_lane(c, 0));
        n = emit(n, rowAt + x + 1, f32x4.extract_lane(c, 1));
        n = emit(n, rowAt + x + 2, f32x4.extract_lane(c, 2));
        n = emit(n, rowAt + x + 3, f32x4.extract_lane(c, 3));
        sum = sumOf(sum, c);
      }
    }
    for (; x <= x1; x++) {
      const at = centre + (<usize>x << 1);
      const p0 = <i32>load<u16>(at);
      let c: f32 = 0;
      for (let d = d0; d < numDiffs; d++) {
        if ((bits & (1 << d)) == 0) continue;
        const step = <usize>((d + 1) * width) << 1;
        const p1 = <i32>load<u16>(at + step);
        const p2 = <i32>load<u16>(at - step);
        const pm = p1 > p2 ? p1 : p2;
        const val = <f32>(load<i32>(weights + (<usize>d << 2)) * p0 * pm) * load<f32>(reciprocal + (<usize>(pm + p0) << 2));
        if (val > c) c = val;
      }
      if (c > 0) {
        n = emit(n, rowAt + x, c);
        sum += <f64>c;
      }
    }
  }
  count = n;
  total += sum;
}

/** Appends a non-zero c-value; zero is skipped. */
@inline
function emit(n: i32, position: i32, value: f32): i32 {
  if (value == 0) return n;
  store<i32>(positions + (<usize>n << 2), position);
  store<f32>(values + (<usize>n << 2), value);
  return n + 1;
}

/** `sum` plus the four lanes in order (zeros add nothing: 0 is exact). */
@inline
function sumOf(sum: f64, c: v128): f64 {
  sum += <f64>f32x4.extract_lane(c, 0);
  sum += <f64>f32x4.extract_lane(c, 1);
  sum += <f64>f32x4.extract_lane(c, 2);
  sum += <f64>f32x4.extract_lane(c, 3);
  return sum;
}

// ---------------------------------------------------------------------------------------
// Spatial mask (spatial-mask.ts)

/** Pixels under the mask the last spatialMask() found. */
let maskPixels: i32 = 0;

export function maskedPixels(): i32 {
  return maskPixels;
}

const MASK_FILTER_SIZE: i32 = 7;
const MASK_PAD: i32 = 3;
const ONES: v128 = i8x16.splat(1);

/**
 * spatial-mask.ts's SpatialMask.compute: the spans (rowStart: h + 1 i32, start and end: i32
 * per span; their count returned) where more than `threshold` of the 7x7 pixels around a
 * pixel (clipped) are flat, a pixel being flat when it equals its right and lower
 * neighbours. `ring` holds 7 rows of flatness (u8, `w` + 16 bytes each) and `columns` the
 * column sums over them (u8: at most 7), with 16 zero bytes before column 0 and 32 after
 * column w − 1: the 7-column sums (at most 49) are then sixteen columns a step, and the
 * mask's transitions come from their comparison's bitmask.
 */
export function spatialMask(picture: usize, w: i32, h: i32, threshold: i32, ring: usize, columnsAt: usize, rowStart: usize, start: usize, end: usize): i32 {
  const stride = <usize>(w + 16);
  const columns = columnsAt + 16;
  memory.fill(ring, 0, stride * MASK_FILTER_SIZE);
  memory.fill(columnsAt, 0, <usize>(w + 48));
  for (let r = 0; r < MASK_PAD; r++) enterRow(picture, w, h, r, ring + <usize>(r % MASK_FILTER_SIZE) * stride, columns);
  const limit = i8x16.splat(<i8>threshold);
  let n = 0;
  let pixels = 0;
  for (let i = 0; i < h; i++) {
    const r = i + MASK_PAD;
    enterRow(picture, w, h, r, ring + <usize>(r % MASK_FILTER_SIZE) * stride, columns);
    store<i32>(rowStart + (<usize>i << 2), n);
    let open = -1;
    let previous: u32 = 0;
    for (let j = 0; j < w; j += 16) {
      const at = columns + <usize>j;
      const sum = i8x16.add(
        i8x16.add(i8x16.add(v128.load(at - 3), v128.load(at - 2)), i8x16.add(v128.load(at - 1), v128.load(at))),
        i8x16.add(i8x16.add(v128.load(at + 1), v128.load(at + 2)), v128.load(at + 3)),
      );
      let bits = <u32>i8x16.bitmask(i8x16.gt_u(sum, limit));
      if (w - j < 16) bits &= (1 << (w - j)) - 1;
      // a set bit of `changes` is a column where the mask starts or ends
      let changes = (bits ^ ((bits << 1) | previous)) & 0xffff;
      previous = bits >> 15;
      while (changes != 0) {
        const x = j + <i32>ctz(changes);
        changes &= changes - 1;
        if (open < 0) {
          open = x;
        } else {
          store<i32>(start + (<usize>n << 2), open);
          store<i32>(end + (<usize>n << 2), x - 1);
          n++;
          pixels += x - open;
          open = -1;
        }
      }
    }
    if (open >= 0) {
      store<i32>(start + (<usize>n << 2), open);
      store<i32>(end + (<usize>n << 2), w - 1);
      n++;
      pixels += w - open;
    }
  }
  store<i32>(rowStart + (<usize>h << 2), n);
  maskPixels = pixels;
  return n;
}

/**
 * Puts row `r`'s flatness (zero past the last row) in its ring slot `slot`, updating the
 * column sums: sixteen columns a step up to the last column, which (with the last row)
 * compares only where there is a neighbour.
 */
function enterRow(picture: usize, w: i32, h: i32, r: i32, slot: usize, columns: usize): void {
  if (r >= h) {
    for (let c = 0; c < w; c += 16) {
      const at = columns + <usize>c;
      v128.store(at, i8x16.sub(v128.load(at), v128.load(slot + <usize>c)));
    }
    memory.fill(slot, 0, <usize>w);
    return;
  }
  const row = picture + (<usize>(r * w) << 1);
  const lastRow = r == h - 1;
  const below = lastRow ? row : row + (<usize>w << 1); // the last row compares with itself: equal
  const last = w - 1;
  let c = 0;
  for (; c + 16 <= last; c += 16) {
    const p = row + (<usize>c << 1);
    const q = below + (<usize>c << 1);
    const a0 = v128.load(p);
    const a1 = v128.load(p, 16);
    const f0 = v128.and(i16x8.eq(a0, v128.load(p, 2)), i16x8.eq(a0, v128.load(q)));
    const f1 = v128.and(i16x8.eq(a1, v128.load(p, 18)), i16x8.eq(a1, v128.load(q, 16)));
    const f = v128.and(i8x16.narrow_i16x8_s(f0, f1), ONES);
    const at = columns + <usize>c;
    const old = slot + <usize>c;
    v128.store(at, i8x16.add(v128.load(at), i8x16.sub(f, v128.load(old))));
    v128.store(old, f);
  }
  for (; c < last; c++) {
    const v = load<u16>(row + (<usize>c << 1));
    const f: u8 = v == load<u16>(row + (<usize>(c + 1) << 1)) && v == load<u16>(below + (<usize>c << 1)) ? 1 : 0;
    store<u8>(columns + <usize>c, load<u8>(columns + <usize>c) + f - load<u8>(slot + <usize>c));
    store<u8>(slot + <usize>c, f);
  }
  const f: u8 = load<u16>(row + (<usize>last << 1)) == load<u16>(below + (<usize>last << 1)) ? 1 : 0;
  store<u8>(columns + <usize>last, load<u8>(columns + <usize>last) + f - load<u8>(slot + <usize>last));
  store<u8>(slot + <usize>last, f);
}

// ---------------------------------------------------------------------------------------
// Mode filter (mode-filter.ts)

/** libvmaf's mode3 per u16 lane: a where it equals b or c, else b where b equals c, else the minimum. */
@inline
function mode3(a: v128, b: v128, c: v128): v128 {
  const least = i16x8.min_u(i16x8.min_u(a, b), c);
  const r = v128.bitselect(b, least, i16x8.eq(b, c));
  return v128.bitselect(a, r, v128.or(i16x8.eq(a, b), i16x8.eq(a, c)));
}

@inline
function mode3Scalar(a: u32, b: u32, c: u32): u32 {
  if (a == b || a == c) return a;
  if (b == c) return b;
  return min(min(a, b), c);
}

/**
 * mode-filter.ts's ModeFilter.run, always as the whole picture: `filtered` gets every
 * sample (mode-filter.ts's `apply`: the vertical mode3 of the horizontal mode3s, first and
 * last rows and columns kept as they are where a neighbour is missing), and `next` (0:
 * none) every other sample of every other row of it. The reference filters only the
 * masked samples when few are (the rest is never read) and its whole-picture path writes
 * the same values in place. Eight samples a step; the horizontal modes of the last three
 * rows are kept in `lines` (3 rows of `w` + 8 u16).
 */
export function modeFilter(picture: usize, w: i32, h: i32, filtered: usize, next: usize, lines: usize): void {
  const stride = <usize>(w + 8) << 1;
  const bytes = <usize>w << 1;
  for (let y = 0; y < h; y++) {
    horizontalModes(picture + <usize>y * bytes, w, lines + <usize>(y % 3) * stride);
    if (y >= 2) {
      const out = filtered + <usize>(y - 1) * bytes;
      const p = lines + <usize>((y - 2) % 3) * stride;
      const q = lines + <usize>((y - 1) % 3) * stride;
      const r = lines + <usize>(y % 3) * stride;
      let x = 0;
      for (; x + 8 <= w; x += 8) {
        const o = <usize>x << 1;
        v128.store(out + o, mode3(v128.load(p + o), v128.load(q + o), v128.load(r + o)));
      }
      for (; x < w; x++) {
        const o = <usize>x << 1;
        store<u16>(out + o, <u16>mode3Scalar(load<u16>(p + o), load<u16>(q + o), load<u16>(r + o)));
      }
    }
  }
  memory.copy(filtered, picture, bytes);
  if (h > 1) memory.copy(filtered + <usize>(h - 1) * bytes, picture + <usize>(h - 1) * bytes, bytes);
  if (next == 0) return;
  const half = (w + 1) >> 1;
  for (let i = 0, rows = (h + 1) >> 1; i < rows; i++) {
    const from = filtered + <usize>(2 * i) * bytes;
    const to = next + (<usize>(i * half) << 1);
    let j = 0;
    for (; 2 * j + 16 <= w; j += 8) {
      const at = from + (<usize>j << 2);
      v128.store(to + (<usize>j << 1), i8x16.shuffle(v128.load(at), v128.load(at, 16), 0, 1, 4, 5, 8, 9, 12, 13, 16, 17, 20, 21, 24, 25, 28, 29));
    }
    for (; j < half; j++) store<u16>(to + (<usize>j << 1), load<u16>(from + (<usize>j << 2)));
  }
}

/** One row's horizontal modes: mode3 of each sample and its neighbours, the first and last samples as they are. */
function horizontalModes(row: usize, w: i32, out: usize): void {
  store<u16>(out, load<u16>(row));
  let x = 1;
  for (; x + 9 <= w; x += 8) {
    const o = <usize>x << 1;
    v128.store(out + o, mode3(v128.load(row + o - 2), v128.load(row + o), v128.load(row + o + 2)));
  }
  for (; x < w - 1; x++) {
    const o = <usize>x << 1;
    store<u16>(out + o, <u16>mode3Scalar(load<u16>(row + o - 2), load<u16>(row + o), load<u16>(row + o + 2)));
  }
  if (w > 1) store<u16>(out + (<usize>(w - 1) << 1), load<u16>(row + (<usize>(w - 1) << 1)));
}

// ---------------------------------------------------------------------------------------
// Preprocessing (numerics/preprocess.ts's antiDitheredFrom8Bit)

/**
 * 8-bit luma (`w`×`h` bytes, packed) to 10 bits and anti-dithered in one pass: each sample
 * the sum of its 2x2 block to the right and below (four samples shifted up by 2 and
 * averaged down by 4), the last column and row twice the sum of two, the corner four
 * times itself. Eight samples a step in u16 lanes (a sum is at most 1020).
 */
export function antiDithered8(src: usize, w: i32, h: i32, out: usize): void {
  const last = w - 1;
  for (let y = 0; y < h; y++) {
    const s = src + <usize>(y * w);
    const t = y < h - 1 ? s + <usize>w : s; // the last row adds itself: twice the sum of two
    const o = out + (<usize>(y * w) << 1);
    let x = 0;
    for (; x + 9 <= w; x += 8) {
      const a = i16x8.add(v128.load8x8_u(s + <usize>x), v128.load8x8_u(s + <usize>x + 1));
      const b = i16x8.add(v128.load8x8_u(t + <usize>x), v128.load8x8_u(t + <usize>x + 1));
      v128.store(o + (<usize>x << 1), i16x8.add(a, b));
    }
    for (; x < last; x++) {
      const sum = <u32>load<u8>(s + <usize>x) + load<u8>(s + <usize>x + 1) + load<u8>(t + <usize>x) + load<u8>(t + <usize>x + 1);
      store<u16>(o + (<usize>x << 1), <u16>sum);
    }
    store<u16>(o + (<usize>last << 1), <u16>((<u32>load<u8>(s + <usize>last) + load<u8>(t + <usize>last)) << 1));
  }
}
