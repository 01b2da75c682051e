// float_ssim's and float_ms_ssim's WebAssembly SIMD kernels, in AssemblyScript (ADR 0040).
// They compute what src/numerics/{luma-float,box-decimate,wavelet-decimate,ssim-statistics}.ts
// compute, to the last bit of every double: those stay the readable specification, and the
// tests hold the two paths to each other and to libvmaf. Built by tools/build-wasm.ts into
// src/cpu/wasm/ssim-kernels.wasm.ts.
//
// The reference is float arithmetic with libvmaf's mixed precision: every filter product
// rounded to float, the products summed in double left to right, each pass's sum rounded
// to float. Here the products are f32x4.mul (the same rounding: a product of two floats is
// exact in double, so Math.fround of it is the float product), promoted to f64x2 lanes and
// added in the reference's order, one output per lane; only the order ACROSS outputs
// changes, never within one. The means over a map are added as scalars, column by column,
// as the reference adds them.
//
// Memory is laid out by the caller (src/cpu/ssim-wasm-workspace.ts): f32 planes, rows
// `width` samples apart, followed by slack the 4-column steps may read (never using what
// they compute there); every pointer is a byte address.

/** Taps of the 11-tap Gaussian window, and the window's width. */
const WINDOW: i32 = 11;

// the current map's sums over its windows (_iqa_ssim's accumulators)
let sumSsim: f64 = 0;
let sumL: f64 = 0;
let sumC: f64 = 0;
let sumS: f64 = 0;

/** Where the caller may start laying out its buffers. */
export function heapBase(): usize {
  return __heap_base;
}

export function mapSumSsim(): f64 {
  return sumSsim;
}
export function mapSumL(): f64 {
  return sumL;
}
export function mapSumC(): f64 {
  return sumC;
}
export function mapSumS(): f64 {
  return sumS;
}

// @ts-ignore: decorator
@inline
function low(p: v128): v128 {
  return f64x2.promote_low_f32x4(p);
}

// @ts-ignore: decorator
@inline
function high(p: v128): v128 {
  return f64x2.promote_low_f32x4(f32x4.shuffle(p, p, 2, 3, 2, 3));
}

/** Four double sums rounded to float, back in one vector. */
// @ts-ignore: decorator
@inline
function demote4(lo: v128, hi: v128): v128 {
  return f32x4.shuffle(f32x4.demote_f64x2_zero(lo), f32x4.demote_f64x2_zero(hi), 0, 1, 4, 5);
}

/**
 * luma-float.ts: `n` samples (u8 when `narrow`, else u16) as floats times `inv` (1, or the
 * power of two that brings high bit depths to the 8-bit range: exact, as the reference's
 * double product stored into a Float32Array is).
 */
export function lumaToFloat(src: usize, narrow: bool, n: i32, dst: usize, inv: f32): void {
  const scale = f32x4.splat(inv);
  let i = 0;
  if (narrow) {
    for (; i + 8 <= n; i += 8) {
      const w = v128.load8x8_u(src + <usize>i);
      v128.store(dst + (<usize>i << 2), f32x4.mul(f32x4.convert_i32x4_u(i32x4.extend_low_i16x8_u(w)), scale));
      v128.store(dst + (<usize>i << 2), f32x4.mul(f32x4.convert_i32x4_u(i32x4.extend_high_i16x8_u(w)), scale), 16);
    }
    for (; i < n; i++) store<f32>(dst + (<usize>i << 2), <f32>load<u8>(src + <usize>i) * inv);
  } else {
    for (; i + 4 <= n; i += 4) {
      v128.store(dst + (<usize>i << 2), f32x4.mul(f32x4.convert_i32x4_u(v128.load16x4_u(src + (<usize>i << 1))), scale));
    }
    for (; i < n; i++) store<f32>(dst + (<usize>i << 2), <f32>load<u16>(src + (<usize>i << 1)) * inv);
  }
}

/** libvmaf's KBND_SYMMETRIC (decimation-geometry.ts's mirror). */
// @ts-ignore: decorator
@inline
function mirror(i: i32, n: i32): i32 {
  return i < 0 ? -1 - i : i >= n ? 2 * n - i - 1 : i;
}

/**
 * box-decimate.ts: float_ssim's factor×factor box (taps of `tap`), products in float, sums
 * in double; both planes and two outputs at a time, so that four sums' dependent additions
 * overlap (one output's are a chain of factor² additions).
 */
export function boxDecimate(srcRef: usize, srcCmp: usize, width: i32, height: i32, factor: i32, dstRef: usize, dstCmp: usize, outW: i32, outH: i32, tap: f32): void {
  const lo = -(factor >> 1);
  const hi = (factor >> 1) - (factor % 2 == 0 ? 1 : 0);
  for (let y = 0; y < outH; y++) {
    const out = <usize>(y * outW) << 2;
    for (let x = 0; x < outW; x += 2) {
      // the second output of the last odd pair repeats the first (written once, below)
      const x1 = x + 1 < outW ? x + 1 : x;
      let ref0: f64 = 0, ref1: f64 = 0, cmp0: f64 = 0, cmp1: f64 = 0;
      for (let v = lo; v <= hi; v++) {
        const row = <usize>(mirror(y * factor + v, height) * width);
        for (let u = lo; u <= hi; u++) {
          const i0 = (row + <usize>mirror(x * factor + u, width)) << 2;
          const i1 = (row + <usize>mirror(x1 * factor + u, width)) << 2;
          ref0 += <f64>(load<f32>(srcRef + i0) * tap);
          ref1 += <f64>(load<f32>(srcRef + i1) * tap);
          cmp0 += <f64>(load<f32>(srcCmp + i0) * tap);
          cmp1 += <f64>(load<f32>(srcCmp + i1) * tap);
        }
      }
      const at = out + (<usize>x << 2);
      store<f32>(dstRef + at, <f32>ref0);
      store<f32>(dstCmp + at, <f32>cmp0);
      if (x1 != x) {
        store<f32>(dstRef + at, <f32>ref1, 4);
        store<f32>(dstCmp + at, <f32>cmp1, 4);
      }
    }
  }
}

/** One wavelet-decimated sample by the reference's general path (mirrored borders), both planes' sums at once. */
function waveletSample(srcRef: usize, srcCmp: usize, width: i32, height: i32, cx: i32, cy: i32, lpf: usize, dstRef: usize, dstCmp: usize): void {
  let sumRef: f64 = 0;
  let sumCmp: f64 = 0;
  for (let v = 0; v < 9; v++) {
    const row = <usize>(mirror(cy + v - 4, height) * width);
    for (let u = 0; u < 9; u++) {
      const t = load<f32>(lpf + (<usize>(v * 9 + u) << 2));
      const i = (row + <usize>mirror(cx + u - 4, width)) << 2;
      sumRef += <f64>(load<f32>(srcRef + i) * t);
      sumCmp += <f64>(load<f32>(srcCmp + i) * t);
    }
  }
  store<f32>(dstRef, <f32>sumRef);
  store<f32>(dstCmp, <f32>sumCmp);
}

/**
 * wavelet-decimate.ts: the 9×9 low-pass around every even sample, both planes. Outputs whose
 * window lies inside the picture go four at a time, on rows split into their even and odd
 * samples first: a tap's four samples, two columns apart in the picture, are then adjacent
 * (shuffles inside the loop cost JavaScriptCore several instructions each). `split`: a ring
 * of the 9 rows a window spans, row r in slot r mod 9, for each of the four split planes,
 * `half` floats a row (ceil(width/2) rounded up to 4).
 */
export function waveletDecimate(srcRef: usize, srcCmp: usize, width: i32, height: i32, dstRef: usize, dstCmp: usize, outW: i32, outH: i32, lpf: usize, split: usize): void {
  const half = ((((width + 1) >> 1) + 3) & ~3);
  const halfBytes = <usize>half << 2;
  const ringBytes = <usize>9 * halfBytes;
  const evenRef = split, oddRef = split + ringBytes, evenCmp = split + 2 * ringBytes, oddCmp = split + 3 * ringBytes;
  /** Rows below it are in the ring. */
  let splitRows = 0;
  // outputs x with 2x - 4 >= 0 and 2x + 4 < width have their window inside (as rows for y)
  const xFirst = 2;
  const xEnd = (width - 5) / 2 + 1;
  for (let y = 0; y < outH; y++) {
    const cy = 2 * y;
    const rowsInside = cy - 4 >= 0 && cy + 4 < height;
    const outRef = dstRef + (<usize>(y * outW) << 2);
    const outCmp = dstCmp + (<usize>(y * outW) << 2);
    let x = 0;
    if (rowsInside && xEnd - xFirst >= 4) {
      for (; x < xFirst; x++) waveletSample(srcRef, srcCmp, width, height, 2 * x, cy, lpf, outRef + (<usize>x << 2), outCmp + (<usize>x << 2));
      // the window's rows into the ring (each row once: later windows start lower)
      for (; splitRows <= cy + 4; splitRows++) {
        const from = <usize>(splitRows * width) << 2;
        const to = <usize>(splitRows % 9) * halfBytes;
        for (let j = 0; j < half; j += 4) {
          const o = <usize>j << 3;
          const t = to + (<usize>j << 2);
          let l0 = v128.load(srcRef + from + o), l1 = v128.load(srcRef + from + o, 16);
          v128.store(evenRef + t, f32x4.shuffle(l0, l1, 0, 2, 4, 6));
          v128.store(oddRef + t, f32x4.shuffle(l0, l1, 1, 3, 5, 7));
          l0 = v128.load(srcCmp + from + o);
          l1 = v128.load(srcCmp + from + o, 16);
          v128.store(evenCmp + t, f32x4.shuffle(l0, l1, 0, 2, 4, 6));
          v128.store(oddCmp + t, f32x4.shuffle(l0, l1, 1, 3, 5, 7));
        }
      }
      const top = <usize>((cy - 4) % 9) * halfBytes;
      for (; x + 4 <= xEnd; x += 4) {
        // tap u = 2m reads even sample x - 2 + m, u = 2m + 1 the odd one
        const column = <usize>(x - 2) << 2;
        const zero = f64x2.splat(0);
        let rLo = zero, rHi = zero, cLo = zero, cHi = zero;
        // a window row's taps in the reference's order; each sum gets its terms in that order
        let slot = top;
        for (let v: usize = 0; v < 9; v++, slot = slot + halfBytes == ringBytes ? 0 : slot + halfBytes) {
          const k = lpf + v * 36;
          const row = slot + column;
          for (let u: usize = 0; u < 9; u++) {
            const t = v128.load32_splat(k + (u << 2));
            const at = row + ((u >> 1) << 2);
            const r = (u & 1 ? oddRef : evenRef) + at;
            const c = (u & 1 ? oddCmp : evenCmp) + at;
            rLo = f64x2.add(rLo, low(f32x4.mul(v128.load(r), t)));
            rHi = f64x2.add(rHi, low(f32x4.mul(v128.load(r, 8), t)));
            cLo = f64x2.add(cLo, low(f32x4.mul(v128.load(c), t)));
            cHi = f64x2.add(cHi, low(f32x4.mul(v128.load(c, 8), t)));
          }
        }
        v128.store(outRef + (<usize>x << 2), demote4(rLo, rHi));
        v128.store(outCmp + (<usize>x << 2), demote4(cLo, cHi));
      }
    }
    for (; x < outW; x++) waveletSample(srcRef, srcCmp, width, height, 2 * x, cy, lpf, outRef + (<usize>x << 2), outCmp + (<usize>x << 2));
  }
}

/**
 * ssim-statistics.ts's horizontal pass of one row: the 11-tap sums of the means (from a, b)
 * and of the second moments (a², b², ab, each rounded to float first) into the five ring
 * rows at m1 + k·mapBytes, four columns a step (a row's last step writes up to three
 * columns past outW, into the ring row's padding).
 */
function horizontalRow(a: usize, b: usize, outW: i32, m1: usize, mapBytes: usize, taps: usize): void {
  for (let i = 0; i < outW; i += 4) {
    const o = <usize>i << 2;
    let t = v128.load32_splat(taps);
    let x = v128.load(a + o);
    let y = v128.load(b + o);
    // the sums start from the first product (no 0 + …), as the reference's do;
    // columns 2 and 3 from a load 8 bytes on rather than a shuffle (several instructions under JavaScriptCore)
    let aLo = low(f32x4.mul(x, t)), aHi = low(f32x4.mul(v128.load(a + o, 8), t));
    let bLo = low(f32x4.mul(y, t)), bHi = low(f32x4.mul(v128.load(b + o, 8), t));
    for (let k: usize = 4; k < <usize>WINDOW * 4; k += 4) {
      t = v128.load32_splat(taps + k);
      const at = a + o + k;
      const bt = b + o + k;
      aLo = f64x2.add(aLo, low(f32x4.mul(v128.load(at), t))); aHi = f64x2.add(aHi, low(f32x4.mul(v128.load(at, 8), t)));
      bLo = f64x2.add(bLo, low(f32x4.mul(v128.load(bt), t))); bHi = f64x2.add(bHi, low(f32x4.mul(v128.load(bt, 8), t)));
    }
    v128.store(m1 + o, demote4(aLo, aHi));
    v128.store(m1 + mapBytes + o, demote4(bLo, bHi));

    t = v128.load32_splat(taps);
    x = v128.load(a + o);
    y = v128.load(b + o);
    let p = f32x4.mul(f32x4.mul(x, x), t);
    let aaLo = low(p), aaHi = high(p);
    p = f32x4.mul(f32x4.mul(y, y), t);
    let bbLo = low(p), bbHi = high(p);
    p = f32x4.mul(f32x4.mul(x, y), t);
    let abLo = low(p), abHi = high(p);
    for (let k: usize = 4; k < <usize>WINDOW * 4; k += 4) {
      t = v128.load32_splat(taps + k);
      x = v128.load(a + o + k);
      y = v128.load(b + o + k);
      p = f32x4.mul(f32x4.mul(x, x), t);
      aaLo = f64x2.add(aaLo, low(p)); aaHi = f64x2.add(aaHi, high(p));
      p = f32x4.mul(f32x4.mul(y, y), t);
      bbLo = f64x2.add(bbLo, low(p)); bbHi = f64x2.add(bbHi, high(p));
      p = f32x4.mul(f32x4.mul(x, y), t);
      abLo = f64x2.add(abLo, low(p)); abHi = f64x2.add(abHi, high(p));
    }
    v128.store(m1 + 2 * mapBytes + o, demote4(aaLo, aaHi));
    v128.store(m1 + 3 * mapBytes + o, demote4(bbLo, bbHi));
    v128.store(m1 + 4 * mapBytes + o, demote4(abLo, abHi));
  }
}

/**
 * The vertical pass for output row y (ring rows y … y+10, slot (y + k) mod 11) and the
 * SSIM terms of its windows, added to the sums column by column.
 */
function windowsRow(y: i32, outW: i32, ring: usize, rowBytes: usize, mapBytes: usize, taps: usize, c1: f32, c2: f32, c3: f32): void {
  const zero = f32x4.splat(0);
  const two = f64x2.splat(2);
  const c1f = f32x4.splat(c1), c2f = f32x4.splat(c2), c3f = f32x4.splat(c3);
  const c1d = f64x2.splat(<f64>c1), c2d = f64x2.splat(<f64>c2);
  const first = <usize>(y % WINDOW) * rowBytes;
  const wrap = <usize>WINDOW * rowBytes;
  let ssim = sumSsim, lSum = sumL, cSum = sumC, sSum = sumS;
  for (let i = 0; i < outW; i += 4) {
    const o = <usize>i << 2;
    // the means
    let slot = first;
    let t = v128.load32_splat(taps);
    let p = f32x4.mul(v128.load(ring + slot + o), t);
    let aLo = low(p), aHi = low(f32x4.mul(v128.load(ring + slot + o, 8), t));
    p = f32x4.mul(v128.load(ring + mapBytes + slot + o), t);
    let bLo = low(p), bHi = low(f32x4.mul(v128.load(ring + mapBytes + slot + o, 8), t));
    for (let k: usize = 4; k < <usize>WINDOW * 4; k += 4) {
      slot += rowBytes;
      if (slot == wrap) slot = 0;
      t = v128.load32_splat(taps + k);
      p = f32x4.mul(v128.load(ring + slot + o), t);
      aLo = f64x2.add(aLo, low(p)); aHi = f64x2.add(aHi, low(f32x4.mul(v128.load(ring + slot + o, 8), t)));
      p = f32x4.mul(v128.load(ring + mapBytes + slot + o), t);
      bLo = f64x2.add(bLo, low(p)); bHi = f64x2.add(bHi, low(f32x4.mul(v128.load(ring + mapBytes + slot + o, 8), t)));
    }
    const mu1 = demote4(aLo, aHi);
    const mu2 = demote4(bLo, bHi);
    // the second moments
    const m11 = ring + 2 * mapBytes + o;
    const m22 = ring + 3 * mapBytes + o;
    const m12 = ring + 4 * mapBytes + o;
    slot = first;
    t = v128.load32_splat(taps);
    p = f32x4.mul(v128.load(m11 + slot), t);
    let aaLo = low(p), aaHi = low(f32x4.mul(v128.load(m11 + slot, 8), t));
    p = f32x4.mul(v128.load(m22 + slot), t);
    let bbLo = low(p), bbHi = low(f32x4.mul(v128.load(m22 + slot, 8), t));
    p = f32x4.mul(v128.load(m12 + slot), t);
    let abLo = low(p), abHi = low(f32x4.mul(v128.load(m12 + slot, 8), t));
    for (let k: usize = 4; k < <usize>WINDOW * 4; k += 4) {
      slot += rowBytes;
      if (slot == wrap) slot = 0;
      t = v128.load32_splat(taps + k);
      p = f32x4.mul(v128.load(m11 + slot), t);
      aaLo = f64x2.add(aaLo, low(p)); aaHi = f64x2.add(aaHi, low(f32x4.mul(v128.load(m11 + slot, 8), t)));
      p = f32x4.mul(v128.load(m22 + slot), t);
      bbLo = f64x2.add(bbLo, low(p)); bbHi = f64x2.add(bbHi, low(f32x4.mul(v128.load(m22 + slot, 8), t)));
      p = f32x4.mul(v128.load(m12 + slot), t);
      abLo = f64x2.add(abLo, low(p)); abHi = f64x2.add(abHi, low(f32x4.mul(v128.load(m12 + slot, 8), t)));
    }
    const e11 = demote4(aaLo, aaHi);
    const e22 = demote4(bbLo, bbHi);
    const e12 = demote4(abLo, abHi);

    // the window's terms, float where the reference rounds to float, double where it does not
    const mu11 = f32x4.mul(mu1, mu1);
    const mu22 = f32x4.mul(mu2, mu2);
    let var1 = f32x4.sub(e11, mu11);
    let var2 = f32x4.sub(e22, mu22);
    // `if (0 > var) var = 0`: a select, not max (which would also turn a NaN or −0 into 0)
    var1 = v128.bitselect(zero, var1, f32x4.lt(var1, zero));
    var2 = v128.bitselect(zero, var2, f32x4.lt(var2, zero));
    const cov = f32x4.sub(e12, f32x4.mul(mu1, mu2));
    const sd12 = f32x4.sqrt(f32x4.mul(var1, var2));
    const lDen = f32x4.add(f32x4.add(mu11, mu22), c1f);
    const lLo = f64x2.div(f64x2.add(f64x2.mul(f64x2.mul(two, low(mu1)), low(mu2)), c1d), low(lDen));
    const lHi = f64x2.div(f64x2.add(f64x2.mul(f64x2.mul(two, high(mu1)), high(mu2)), c1d), high(lDen));
    const cDen = f32x4.add(f32x4.add(var1, var2), c2f);
    const cLo = f64x2.div(f64x2.add(f64x2.mul(two, low(sd12)), c2d), low(cDen));
    const cHi = f64x2.div(f64x2.add(f64x2.mul(two, high(sd12)), c2d), high(cDen));
    const covClamped = v128.bitselect(zero, cov, v128.and(f32x4.lt(cov, zero), f32x4.le(sd12, zero)));
    const s = f32x4.div(f32x4.add(covClamped, c3f), f32x4.add(sd12, c3f));
    const sLo = low(s), sHi = high(s);
    const lcsLo = f64x2.mul(f64x2.mul(lLo, cLo), sLo);
    const lcsHi = f64x2.mul(f64x2.mul(lHi, cHi), sHi);

    // column by column, as the reference adds them
    ssim += f64x2.extract_lane(lcsLo, 0);
    lSum += f64x2.extract_lane(lLo, 0);
    cSum += f64x2.extract_lane(cLo, 0);
    sSum += f64x2.extract_lane(sLo, 0);
    const left = outW - i;
    if (left > 1) {
      ssim += f64x2.extract_lane(lcsLo, 1);
      lSum += f64x2.extract_lane(lLo, 1);
      cSum += f64x2.extract_lane(cLo, 1);
      sSum += f64x2.extract_lane(sLo, 1);
    }
    if (left > 2) {
      ssim += f64x2.extract_lane(lcsHi, 0);
      lSum += f64x2.extract_lane(lHi, 0);
      cSum += f64x2.extract_lane(cHi, 0);
      sSum += f64x2.extract_lane(sHi, 0);
    }
    if (left > 3) {
      ssim += f64x2.extract_lane(lcsHi, 1);
      lSum += f64x2.extract_lane(lHi, 1);
      cSum += f64x2.extract_lane(cHi, 1);
      sSum += f64x2.extract_lane(sHi, 1);
    }
  }
  sumSsim = ssim;
  sumL = lSum;
  sumC = cSum;
  sumS = sSum;
}

/**
 * ssim-statistics.ts's SsimStatistics.compute on one scale: the sums over every 11×11
 * window (read them with mapSum*). `ring`: five maps of 11 rows, `rowBytes` apart (at least
 * outW rounded up to 4 floats), a map `11·rowBytes`; `taps`: the 11 window taps.
 */
export function ssimStatistics(ref: usize, cmp: usize, width: i32, height: i32, ring: usize, rowBytes: usize, taps: usize, c1: f32, c2: f32, c3: f32): void {
  const outW = width - WINDOW + 1;
  const mapBytes = <usize>WINDOW * rowBytes;
  sumSsim = 0;
  sumL = 0;
  sumC = 0;
  sumS = 0;
  for (let r = 0; r < height; r++) {
    const from = <usize>(r * width) << 2;
    horizontalRow(ref + from, cmp + from, outW, ring + <usize>(r % WINDOW) * rowBytes, mapBytes, taps);
    if (r >= WINDOW - 1) windowsRow(r - WINDOW + 1, outW, ring, rowBytes, mapBytes, taps, c1, c2, c3);
  }
}
