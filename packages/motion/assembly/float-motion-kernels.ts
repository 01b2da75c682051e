// float_motion's WebAssembly SIMD kernels, in AssemblyScript (ADR 0040). They compute what
// src/float-blur.ts and src/float-sad.ts compute, bit for bit: those stay the readable
// specification, and the tests hold the two paths to each other and to libvmaf. Built by
// tools/build-wasm.ts into src/wasm/float-motion-kernels.wasm.ts.
//
// Every blurred sample is one lane, four a step, doing the reference's float operations in
// its order; the SAD's sums, which run along a row, are added one column at a time in
// column order as the reference adds. Planes are packed f32 (rows `width` apart), pointers
// byte addresses; a step may read and write up to 7 floats past a plane's end (slack the
// caller allocates) and a row's last step writes into the next row, which is computed after.

/** Where the caller may start laying out its buffers. */
export function heapBase(): usize {
  return __heap_base;
}

/**
 * libvmaf's picture_copy for float motion (copyToFloat): `count` samples at `src` (u8 when
 * `narrow`, else u16) times `scale` (a power of two: exact) less 128 (exact), eight a step.
 */
export function toFloat(src: usize, narrow: bool, count: i32, dst: usize, scale: f32): void {
  const s = f32x4.splat(scale);
  const offset = f32x4.splat(128);
  for (let i = 0; i < count; i += 8) {
    const x = narrow ? v128.load8x8_u(src + <usize>i) : v128.load(src + (<usize>i << 1));
    const lo = f32x4.convert_i32x4_u(i32x4.extend_low_i16x8_u(x));
    const hi = f32x4.convert_i32x4_u(i32x4.extend_high_i16x8_u(x));
    v128.store(dst + (<usize>i << 2), f32x4.sub(f32x4.mul(lo, s), offset));
    v128.store(dst + (<usize>i << 2) + 16, f32x4.sub(f32x4.mul(hi, s), offset));
  }
}

/** reflect-101 (the reference's mirror): -1 -> 1, size -> size - 2. */
@inline
function mirror(index: i32, size: i32): i32 {
  if (index < 0) return -index;
  if (index >= size) return 2 * size - index - 2;
  return index;
}

/** f0*s0 + f1*s1 + ... + f4*s4, each product and sum rounded to float, from the first product on. */
@inline
function taps5(f0: f32, f1: f32, f2: f32, f3: f32, f4: f32, s0: f32, s1: f32, s2: f32, s3: f32, s4: f32): f32 {
  let acc = f0 * s0;
  acc = acc + f1 * s1;
  acc = acc + f2 * s2;
  acc = acc + f3 * s3;
  return acc + f4 * s4;
}

/**
 * convolution_f32 with a 5-tap filter (blurFloat's 5-tap path): the vertical pass into
 * `tmp` (rows mirrored), four columns a step, then the horizontal one into `dst`, four
 * columns a step inside and the two mirrored columns at each edge one at a time.
 */
export function blur5(src: usize, dst: usize, tmp: usize, width: i32, height: i32, filter: usize): void {
  const f0 = load<f32>(filter), f1 = load<f32>(filter, 4), f2 = load<f32>(filter, 8), f3 = load<f32>(filter, 12), f4 = load<f32>(filter, 16);
  const c0 = f32x4.splat(f0), c1 = f32x4.splat(f1), c2 = f32x4.splat(f2), c3 = f32x4.splat(f3), c4 = f32x4.splat(f4);
  const rowBytes = <usize>width << 2;
  for (let i = 0; i < height; i++) {
    const r0 = src + <usize>mirror(i - 2, height) * rowBytes;
    const r1 = src + <usize>mirror(i - 1, height) * rowBytes;
    const r2 = src + <usize>i * rowBytes;
    const r3 = src + <usize>mirror(i + 1, height) * rowBytes;
    const r4 = src + <usize>mirror(i + 2, height) * rowBytes;
    const o = tmp + <usize>i * rowBytes;
    for (let j = 0; j < width; j += 4) {
      const p = <usize>j << 2;
      let acc = f32x4.mul(c0, v128.load(r0 + p));
      acc = f32x4.add(acc, f32x4.mul(c1, v128.load(r1 + p)));
      acc = f32x4.add(acc, f32x4.mul(c2, v128.load(r2 + p)));
      acc = f32x4.add(acc, f32x4.mul(c3, v128.load(r3 + p)));
      v128.store(o + p, f32x4.add(acc, f32x4.mul(c4, v128.load(r4 + p))));
    }
  }
  for (let i = 0; i < height; i++) {
    const r = tmp + <usize>i * rowBytes;
    const o = dst + <usize>i * rowBytes;
    // inside: columns 2 .. width-3 read j-2 .. j+2 unmirrored
    for (let j = 2; j < width - 2; j += 4) {
      const p = r + (<usize>(j - 2) << 2);
      let acc = f32x4.mul(c0, v128.load(p));
      acc = f32x4.add(acc, f32x4.mul(c1, v128.load(p + 4)));
      acc = f32x4.add(acc, f32x4.mul(c2, v128.load(p + 8)));
      acc = f32x4.add(acc, f32x4.mul(c3, v128.load(p + 12)));
      v128.store(o + (<usize>j << 2), f32x4.add(acc, f32x4.mul(c4, v128.load(p + 16))));
    }
    // the edges (after the inside, whose last step may have written them with unmirrored taps)
    for (let j = 0; j < width; j++) {
      if (j == 2 && width - 2 > 2) j = width - 2;
      const s0 = load<f32>(r + (<usize>mirror(j - 2, width) << 2));
      const s1 = load<f32>(r + (<usize>mirror(j - 1, width) << 2));
      const s2 = load<f32>(r + (<usize>j << 2));
      const s3 = load<f32>(r + (<usize>mirror(j + 1, width) << 2));
      const s4 = load<f32>(r + (<usize>mirror(j + 2, width) << 2));
      store<f32>(o + (<usize>j << 2), taps5(f0, f1, f2, f3, f4, s0, s1, s2, s3, s4));
    }
  }
}

/**
 * vmaf_image_sad_c's sum (floatSad before its division): per row, |a - b| in float, four
 * columns a step, added to the row's float sum column by column; the rows' sums added in
 * row order. Rows `stride` floats apart.
 */
export function sadSum(a: usize, b: usize, width: i32, height: i32, stride: i32): f32 {
  const rowBytes = <usize>stride << 2;
  let sum: f32 = 0;
  for (let i = 0; i < height; i++) {
    const ra = a + <usize>i * rowBytes;
    const rb = b + <usize>i * rowBytes;
    let line: f32 = 0;
    let j = 0;
    for (; j + 4 <= width; j += 4) {
      const p = <usize>j << 2;
      const d = f32x4.abs(f32x4.sub(v128.load(ra + p), v128.load(rb + p)));
      line += f32x4.extract_lane(d, 0);
      line += f32x4.extract_lane(d, 1);
      line += f32x4.extract_lane(d, 2);
      line += f32x4.extract_lane(d, 3);
    }
    for (; j < width; j++) line += abs<f32>(load<f32>(ra + (<usize>j << 2)) - load<f32>(rb + (<usize>j << 2)));
    sum += line;
  }
  return sum;
}
