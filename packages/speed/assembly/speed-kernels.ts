// SpEED's WebAssembly SIMD kernels (speed_chroma, speed_temporal), in AssemblyScript
// (ADR 0040). They compute what src/numerics/{float-image,decimate,covariance}.ts compute,
// to the last bit of every float and double: those stay the readable specification, and
// the tests hold the two paths to each other and to libvmaf. Built by tools/build-wasm.ts
// into src/cpu/wasm/speed-kernels.wasm.ts.
//
// The reference's filters are float arithmetic: each product of two floats rounded to
// float, added to a float sum (Math.fround of the exact double product or sum: the float
// operation's result). Here f32x4.mul and f32x4.add do those operations, one OUTPUT per
// lane, in the reference's order of taps; only the order across outputs changes. The
// covariance's double sums keep the 16 lanes the reference copies from libvmaf's AVX-512
// kernel, as eight f64x2 accumulators, reduced in the reference's order. The
// transcendental and small steps (eigenvalues, QR solve, log2, the score) stay TypeScript.
//
// Memory is laid out by the caller (src/cpu/speed-wasm-passes.ts): f32 planes with rows
// `width` samples apart, samples as u8 (8-bit) or u16; every pointer is a byte address.

/** Where the caller may start laying out its buffers. */
export function heapBase(): usize {
  return __heap_base;
}

/** float-image.ts's planeToFloat on packed samples: s / 2^k − 128 (inv = 2^−k: exact), one rounding. */
export function samplesToFloat(src: usize, narrow: bool, n: i32, dst: usize, inv: f32): void {
  const scale = f32x4.splat(inv);
  const offset = f32x4.splat(128);
  let i = 0;
  if (narrow) {
    for (; i + 8 <= n; i += 8) {
      const w = v128.load8x8_u(src + <usize>i);
      v128.store(dst + (<usize>i << 2), f32x4.sub(f32x4.mul(f32x4.convert_i32x4_u(i32x4.extend_low_i16x8_u(w)), scale), offset));
      v128.store(dst + (<usize>i << 2), f32x4.sub(f32x4.mul(f32x4.convert_i32x4_u(i32x4.extend_high_i16x8_u(w)), scale), offset), 16);
    }
    for (; i < n; i++) store<f32>(dst + (<usize>i << 2), <f32>load<u8>(src + <usize>i) * inv - 128);
  } else {
    for (; i + 4 <= n; i += 4) {
      v128.store(dst + (<usize>i << 2), f32x4.sub(f32x4.mul(f32x4.convert_i32x4_u(v128.load16x4_u(src + (<usize>i << 1))), scale), offset));
    }
    for (; i < n; i++) store<f32>(dst + (<usize>i << 2), <f32>load<u16>(src + (<usize>i << 1)) * inv - 128);
  }
}

/** float-image.ts's sampleDifference on packed samples: (previous − current) / 2^k, exact. */
export function samplesDifference(prev: usize, cur: usize, narrow: bool, n: i32, dst: usize, inv: f32): void {
  const scale = f32x4.splat(inv);
  let i = 0;
  if (narrow) {
    for (; i + 8 <= n; i += 8) {
      const d = i16x8.sub(v128.load8x8_u(prev + <usize>i), v128.load8x8_u(cur + <usize>i));
      v128.store(dst + (<usize>i << 2), f32x4.mul(f32x4.convert_i32x4_s(i32x4.extend_low_i16x8_s(d)), scale));
      v128.store(dst + (<usize>i << 2), f32x4.mul(f32x4.convert_i32x4_s(i32x4.extend_high_i16x8_s(d)), scale), 16);
    }
    for (; i < n; i++) store<f32>(dst + (<usize>i << 2), <f32>(<i32>load<u8>(prev + <usize>i) - <i32>load<u8>(cur + <usize>i)) * inv);
  } else {
    for (; i + 4 <= n; i += 4) {
      const d = i32x4.sub(v128.load16x4_u(prev + (<usize>i << 1)), v128.load16x4_u(cur + (<usize>i << 1)));
      v128.store(dst + (<usize>i << 2), f32x4.mul(f32x4.convert_i32x4_s(d), scale));
    }
    for (; i < n; i++) store<f32>(dst + (<usize>i << 2), <f32>(<i32>load<u16>(prev + (<usize>i << 1)) - <i32>load<u16>(cur + (<usize>i << 1))) * inv);
  }
}

/** decimate.ts's mirrorIndex (vif_filter1d_s's reflection; the edge sample is not repeated). */
// @ts-ignore: decorator
@inline
function mirror(i: i32, n: i32): i32 {
  return i < 0 ? -i : i >= n ? 2 * n - i - 2 : i;
}

/**
 * One output row of a vertical pass, four columns a step: row[c] = Σk taps[k]·src[row_k][c],
 * rows `mirror(first + k)`, in float, taps in order. The reference's sum starts at 0
 * (0 + the first product: −0 becomes +0, as here).
 */
// @ts-ignore: decorator
@inline
function verticalRow(src: usize, width: i32, height: i32, first: i32, taps: usize, n: i32, row: usize): void {
  let c = 0;
  for (; c + 4 <= width; c += 4) {
    let acc = f32x4.splat(0);
    for (let k = 0; k < n; k++) {
      const at = src + ((<usize>mirror(first + k, height) * <usize>width + <usize>c) << 2);
      acc = f32x4.add(acc, f32x4.mul(f32x4.splat(load<f32>(taps + (<usize>k << 2))), v128.load(at)));
    }
    v128.store(row + (<usize>c << 2), acc);
  }
  for (; c < width; c++) {
    let acc: f32 = 0;
    for (let k = 0; k < n; k++) {
      acc = acc + load<f32>(taps + (<usize>k << 2)) * load<f32>(src + ((<usize>mirror(first + k, height) * <usize>width + <usize>c) << 2));
    }
    store<f32>(row + (<usize>c << 2), acc);
  }
}

/** The horizontal pass of one decimated row: output j sums the vertically filtered `row` at its `n` tap columns, in tap order (f32). */
@inline
function horizontalRow(row: usize, taps: usize, n: i32, tapColumns: usize, out: usize, outW: i32): void {
  for (let j = 0; j < outW; j++) {
    let acc: f32 = 0;
    const t = tapColumns + (<usize>(j * n) << 2);
    for (let k = 0; k < n; k++) {
      acc = acc + load<f32>(taps + (<usize>k << 2)) * load<f32>(row + (<usize>load<i32>(t + (<usize>k << 2)) << 2));
    }
    store<f32>(out + (<usize>j << 2), acc);
  }
}

/**
 * decimate.ts's Decimator.run: the anti-alias filter at every 16th row and column of the
 * (scaled) picture. The vertical pass runs over every column (four a step costs less than
 * picking the ones the kept samples read); the horizontal pass reads the caller's
 * per-output tap columns (`tapColumns`, i32, n per output column, mirrored).
 */
export function decimate(src: usize, width: i32, height: i32, taps: usize, n: i32, tapColumns: usize, row: usize, dst: usize, outW: i32, outH: i32): void {
  const half = n >> 1;
  for (let i = 0; i < outH; i++) {
    verticalRow(src, width, height, 16 * i - half, taps, n, row);
    horizontalRow(row, taps, n, tapColumns, dst + (<usize>(i * outW) << 2), outW);
  }
}

/**
 * Four samples from index `i` of packed sample planes as the reference's floats: planeToFloat's
 * s / 2^k − 128 of plane a, or (diff) sampleDifference's (a − b) / 2^k. The u8 loads read 4
 * bytes past the four samples (the caller's slack).
 */
// @ts-ignore: decorator
@inline
function sampleVector(a: usize, b: usize, narrow: bool, diff: bool, i: usize, scale: v128, offset: v128): v128 {
  if (narrow) {
    const x = i32x4.extend_low_i16x8_u(v128.load8x8_u(a + i));
    if (diff) return f32x4.mul(f32x4.convert_i32x4_s(i32x4.sub(x, i32x4.extend_low_i16x8_u(v128.load8x8_u(b + i)))), scale);
    return f32x4.sub(f32x4.mul(f32x4.convert_i32x4_u(x), scale), offset);
  }
  const x = v128.load16x4_u(a + (i << 1));
  if (diff) return f32x4.mul(f32x4.convert_i32x4_s(i32x4.sub(x, v128.load16x4_u(b + (i << 1)))), scale);
  return f32x4.sub(f32x4.mul(f32x4.convert_i32x4_u(x), scale), offset);
}

/** One sample of sampleVector's. */
// @ts-ignore: decorator
@inline
function sampleScalar(a: usize, b: usize, narrow: bool, diff: bool, i: usize, inv: f32): f32 {
  if (narrow) {
    if (diff) return <f32>(<i32>load<u8>(a + i) - <i32>load<u8>(b + i)) * inv;
    return <f32>load<u8>(a + i) * inv - 128;
  }
  if (diff) return <f32>(<i32>load<u16>(a + (i << 1)) - <i32>load<u16>(b + (i << 1))) * inv;
  return <f32>load<u16>(a + (i << 1)) * inv - 128;
}

// @ts-ignore: decorator
@inline
function decimateSamplesAs(narrow: bool, diff: bool, a: usize, b: usize, inv: f32, width: i32, height: i32, taps: usize, n: i32, tapColumns: usize, row: usize, dst: usize, outW: i32, outH: i32): void {
  const half = n >> 1;
  const scale = f32x4.splat(inv);
  const offset = f32x4.splat(128);
  // the columns kept outputs read, 16j − half … 16j + half, as 4-column groups around 16j
  // (9 taps: 12 columns of 16); filters of more than 11 taps read nearly every column, so
  // their groups would overlap: one group every 4 columns then (the whole row)
  const groups = (half + 3) >> 2;
  const whole = groups > 1;
  const spans = whole ? 1 : outW;
  for (let i = 0; i < outH; i++) {
    const first = 16 * i - half;
    for (let j = 0; j < spans; j++) {
      const gLast = whole ? (width - 1) >> 2 : groups;
      for (let g = whole ? 0 : -groups; g <= gLast; g++) {
        const c = 16 * j + 4 * g;
        if (c < 0 || c >= width) continue;
        if (c + 4 > width) {
          for (let cs = c; cs < width; cs++) {
            let acc: f32 = 0;
            for (let k = 0; k < n; k++) {
              const index = <usize>mirror(first + k, height) * <usize>width + <usize>cs;
              acc = acc + load<f32>(taps + (<usize>k << 2)) * sampleScalar(a, b, narrow, diff, index, inv);
            }
            store<f32>(row + (<usize>cs << 2), acc);
          }
          continue;
        }
        let acc = f32x4.splat(0);
        for (let k = 0; k < n; k++) {
          const index = <usize>mirror(first + k, height) * <usize>width + <usize>c;
          acc = f32x4.add(acc, f32x4.mul(f32x4.splat(load<f32>(taps + (<usize>k << 2))), sampleVector(a, b, narrow, diff, index, scale, offset)));
        }
        v128.store(row + (<usize>c << 2), acc);
      }
    }
    horizontalRow(row, taps, n, tapColumns, dst + (<usize>(i * outW) << 2), outW);
  }
}

/**
 * decimate without the full-size float picture (when nothing is resampled): the vertical
 * pass converts the samples it reads as samplesToFloat (diff: samplesDifference of a and b)
 * would, so the floats are the same and only the rows the filter reads are converted.
 */
export function decimateSamples(a: usize, b: usize, narrow: bool, diff: bool, inv: f32, width: i32, height: i32, taps: usize, n: i32, tapColumns: usize, row: usize, dst: usize, outW: i32, outH: i32): void {
  if (narrow) {
    if (diff) decimateSamplesAs(true, true, a, b, inv, width, height, taps, n, tapColumns, row, dst, outW, outH);
    else decimateSamplesAs(true, false, a, b, inv, width, height, taps, n, tapColumns, row, dst, outW, outH);
  } else {
    if (diff) decimateSamplesAs(false, true, a, b, inv, width, height, taps, n, tapColumns, row, dst, outW, outH);
    else decimateSamplesAs(false, false, a, b, inv, width, height, taps, n, tapColumns, row, dst, outW, outH);
  }
}

/**
 * decimate.ts's LocalMeanRemover.run: the local-mean filter's picture into `mean`, then
 * subtracted from the picture in place (after the whole mean: the filter reads the rows).
 */
export function removeLocalMean(image: usize, w: i32, h: i32, taps: usize, n: i32, row: usize, mean: usize): void {
  const half = n >> 1;
  for (let i = 0; i < h; i++) {
    verticalRow(image, w, h, i - half, taps, n, row);
    for (let j = 0; j < w; j++) {
      let acc: f32 = 0;
      for (let k = 0; k < n; k++) acc = acc + load<f32>(taps + (<usize>k << 2)) * load<f32>(row + (<usize>mirror(j - half + k, w) << 2));
      store<f32>(mean + (<usize>(i * w + j) << 2), acc);
    }
  }
  const size = w * h;
  let p = 0;
  for (; p + 4 <= size; p += 4) {
    const at = <usize>p << 2;
    v128.store(image + at, f32x4.sub(v128.load(image + at), v128.load(mean + at)));
  }
  for (; p < size; p++) {
    const at = <usize>p << 2;
    store<f32>(image + at, load<f32>(image + at) - load<f32>(mean + at));
  }
}

/**
 * covariance.ts's crossSum: Σ x_a·x_b over the rows, 16 columns a step into 16 lanes (eight
 * f64x2), then 8 into the first 8, the rest into a scalar, reduced as the reference does.
 * Exported for the tests: the covariance rounds it to float, which would hide a last-bit slip.
 */
export function crossSum(centred: usize, nBytes: usize, a: i32, b: i32, width: i32, height: i32): f64 {
  let l0 = f64x2.splat(0), l1 = f64x2.splat(0), l2 = f64x2.splat(0), l3 = f64x2.splat(0);
  let l4 = f64x2.splat(0), l5 = f64x2.splat(0), l6 = f64x2.splat(0), l7 = f64x2.splat(0);
  let tail: f64 = 0;
  const rowBytes = <usize>width << 3;
  for (let r = 0; r < height; r++) {
    let i = centred + <usize>a * nBytes + <usize>r * rowBytes;
    let j = centred + <usize>b * nBytes + <usize>r * rowBytes;
    const end = i + rowBytes;
    for (; i + 128 <= end; i += 128, j += 128) {
      l0 = f64x2.add(l0, f64x2.mul(v128.load(i), v128.load(j)));
      l1 = f64x2.add(l1, f64x2.mul(v128.load(i, 16), v128.load(j, 16)));
      l2 = f64x2.add(l2, f64x2.mul(v128.load(i, 32), v128.load(j, 32)));
      l3 = f64x2.add(l3, f64x2.mul(v128.load(i, 48), v128.load(j, 48)));
      l4 = f64x2.add(l4, f64x2.mul(v128.load(i, 64), v128.load(j, 64)));
      l5 = f64x2.add(l5, f64x2.mul(v128.load(i, 80), v128.load(j, 80)));
      l6 = f64x2.add(l6, f64x2.mul(v128.load(i, 96), v128.load(j, 96)));
      l7 = f64x2.add(l7, f64x2.mul(v128.load(i, 112), v128.load(j, 112)));
    }
    for (; i + 64 <= end; i += 64, j += 64) {
      l0 = f64x2.add(l0, f64x2.mul(v128.load(i), v128.load(j)));
      l1 = f64x2.add(l1, f64x2.mul(v128.load(i, 16), v128.load(j, 16)));
      l2 = f64x2.add(l2, f64x2.mul(v128.load(i, 32), v128.load(j, 32)));
      l3 = f64x2.add(l3, f64x2.mul(v128.load(i, 48), v128.load(j, 48)));
    }
    for (; i < end; i += 8, j += 8) tail += load<f64>(i) * load<f64>(j);
  }
  // lanes (l0, l1) … (l14, l15): s = l[m] + l[m + 8], t = s[m + 4] + s[m], then t2 + t0 + (t3 + t1)
  const s0 = f64x2.add(l0, l4), s1 = f64x2.add(l1, l5), s2 = f64x2.add(l2, l6), s3 = f64x2.add(l3, l7);
  const t01 = f64x2.add(s2, s0);
  const t23 = f64x2.add(s3, s1);
  const u = f64x2.add(t23, t01);
  return f64x2.extract_lane(u, 0) + f64x2.extract_lane(u, 1) + tail;
}

/**
 * covariance.ts's CovarianceEstimator.run: the 25 shifted copies' float means (a float
 * sum each, in row order), the copies minus their means in double (`centred`, 25 × n
 * doubles), and the 25×25 covariance matrix, each entry the cross sum / n rounded to float.
 */
export function covariance(data: usize, stride: i32, subW: i32, subH: i32, centred: usize, means: usize, cov: usize): void {
  const n = subW * subH;
  const count = <f32>n;
  const nBytes = <usize>n << 3;
  for (let k = 0; k < 25; k++) {
    const r = k / 5;
    const c = k % 5;
    let sum: f32 = 0;
    for (let i = 0; i < subH; i++) {
      const p = data + (<usize>((r + i) * stride + c) << 2);
      for (let x = 0; x < subW; x++) sum = sum + load<f32>(p + (<usize>x << 2));
    }
    const mean = sum / count;
    store<f32>(means + (<usize>k << 2), mean);
    const m = f64x2.splat(<f64>mean);
    let o = centred + <usize>k * nBytes;
    for (let i = 0; i < subH; i++) {
      const p = data + (<usize>((r + i) * stride + c) << 2);
      let x = 0;
      for (; x + 2 <= subW; x += 2, o += 16) v128.store(o, f64x2.sub(f64x2.promote_low_f32x4(v128.load64_zero(p + (<usize>x << 2))), m));
      for (; x < subW; x++, o += 8) store<f64>(o, <f64>load<f32>(p + (<usize>x << 2)) - <f64>mean);
    }
  }
  for (let a = 0; a < 25; a++) {
    for (let b = 0; b <= a; b++) {
      const v = <f32>(crossSum(centred, nBytes, a, b, subW, subH) / <f64>n);
      store<f32>(cov + (<usize>(a * 25 + b) << 2), v);
      store<f32>(cov + (<usize>(b * 25 + a) << 2), v);
    }
  }
}

// ---- qr-solve.ts: libvmaf's float Householder QR of K (25×25) and the solve K X = Y ----

/** The order of K (25 neighbourhood positions). */
const N: i32 = 25;

// @ts-ignore: decorator
@inline
function at(m: usize, i: i32, j: i32, cols: i32): usize {
  return m + (<usize>(i * cols + j) << 2);
}

/** qr-solve.ts's vectorNorm: the float sum of float squares, its square root rounded to float (f32.sqrt: the same). */
function vectorNorm(v: usize): f32 {
  let sum: f32 = 0;
  for (let i = 0; i < N; i++) {
    const x = load<f32>(v + (<usize>i << 2));
    sum = sum + x * x;
  }
  return Mathf.sqrt(sum);
}

/**
 * qr-solve.ts's multiply and multiplyBlock: dst[i][j] (i ≥ from, j ≥ fromColumn) = Σk≥kFrom
 * x[i][k]·y[k][j] in float, k in order, four j a step (each j its own sum).
 */
function multiplyRows(dst: usize, x: usize, y: usize, rows: i32, inner: i32, cols: i32, from: i32, kFrom: i32, fromColumn: i32): void {
  for (let i = from; i < rows; i++) {
    for (let j = fromColumn; j < cols; j++) store<f32>(at(dst, i, j, cols), 0);
    for (let k = kFrom; k < inner; k++) {
      const xik = load<f32>(at(x, i, k, inner));
      const s = f32x4.splat(xik);
      let j = fromColumn;
      for (; j + 4 <= cols; j += 4) {
        const d = at(dst, i, j, cols);
        v128.store(d, f32x4.add(v128.load(d), f32x4.mul(s, v128.load(at(y, k, j, cols)))));
      }
      for (; j < cols; j++) {
        const d = at(dst, i, j, cols);
        store<f32>(d, load<f32>(d) + xik * load<f32>(at(y, k, j, cols)));
      }
    }
  }
}

/**
 * QrSolver.solve: writes X (25 × columns) into x; 0 where R has a diagonal below 1e-6
 * (libvmaf's -EINVAL), else 1. work: 4 matrices of 25×25 floats, a 25-float vector and
 * 25 × columns floats (Q'Y), in that order.
 */
export function qrSolve(a: usize, y: usize, x: usize, columns: i32, work: usize): i32 {
  const nn = <usize>(N * N) << 2;
  const q = work, r = work + nn, h = work + 2 * nn, z = work + 3 * nn, v = work + 4 * nn;
  const qtb = v + (<usize>N << 2);
  memory.copy(z, a, nn);
  memory.fill(q, 0, nn);
  for (let i = 0; i < N; i++) store<f32>(at(q, i, i, N), 1);
  for (let k = 0; k < N - 1; k++) {
    // matrix_minor: identity in the first k rows and columns
    for (let i = 0; i < N; i++) {
      for (let j = 0; j < N; j++) if (i < k || j < k) store<f32>(at(z, i, j, N), i == j ? 1 : 0);
    }
    for (let i = 0; i < N; i++) store<f32>(v + (<usize>i << 2), load<f32>(at(z, i, k, N)));
    const norm = vectorNorm(v);
    const signed: f32 = load<f32>(at(a, k, k, N)) >= 0 ? norm : -norm;
    const vk = v + (<usize>k << 2);
    store<f32>(vk, load<f32>(vk) + signed);
    const length = vectorNorm(v);
    for (let i = 0; i < N; i++) store<f32>(v + (<usize>i << 2), load<f32>(v + (<usize>i << 2)) / length);
    // H = I − 2 v v' on the block from (k, k)
    for (let i = k; i < N; i++) {
      const vi: f32 = -2 * load<f32>(v + (<usize>i << 2));
      for (let j = k; j < N; j++) store<f32>(at(h, i, j, N), vi * load<f32>(v + (<usize>j << 2)));
      store<f32>(at(h, i, i, N), load<f32>(at(h, i, i, N)) + 1);
    }
    multiplyRows(r, h, z, N, N, N, k, k, k);
    for (let i = k; i < N; i++) for (let j = k; j < N; j++) store<f32>(at(z, i, j, N), load<f32>(at(r, i, j, N)));
    multiplyRows(r, h, q, N, N, N, k, k, 0);
    for (let i = k; i < N; i++) for (let j = 0; j < N; j++) store<f32>(at(q, i, j, N), load<f32>(at(r, i, j, N)));
  }
  multiplyRows(r, q, a, N, N, N, 0, 0, 0);
  // the reference transposes Q here and solve_linear_system transposes it back: both left out
  multiplyRows(qtb, q, y, N, N, columns, 0, 0, 0);
  // solve_triangular_system from the last row up, four columns a step
  for (let i = N - 1; i >= 0; i--) {
    const den = load<f32>(at(r, i, i, N));
    if (<f64>Mathf.abs(den) < 1e-6) return 0;
    const d = f32x4.splat(den);
    let j = 0;
    for (; j + 4 <= columns; j += 4) {
      let t = v128.load(at(qtb, i, j, columns));
      for (let k = i + 1; k < N; k++) t = f32x4.sub(t, f32x4.mul(v128.load(at(x, k, j, columns)), f32x4.splat(load<f32>(at(r, i, k, N)))));
      v128.store(at(x, i, j, columns), f32x4.div(t, d));
    }
    for (; j < columns; j++) {
      let t = load<f32>(at(qtb, i, j, columns));
      for (let k = i + 1; k < N; k++) t = t - load<f32>(at(x, k, j, columns)) * load<f32>(at(r, i, k, N));
      store<f32>(at(x, i, j, columns), t / den);
    }
  }
  return 1;
}
