/*
 * float_ansnr's arithmetic in single precision, emulated with Math.fround: libvmaf
 * (ansnr_tools.c, 2-D filters, mirrored edges) computes every product and sum in float.
 * A double product or sum of two floats rounded once to float equals the float
 * operation, so fround after each step reproduces it exactly.
 */

/** A square filter's coefficients as the float table libvmaf stores them, row by row. */
function floatKernel(weights: readonly number[], divisor: number): Float32Array {
  return Float32Array.from(weights, (w) => w / divisor);
}

/** ansnr_filter2d_ref_s: 3×3 binomial, applied to the reference. */
export const ANSNR_REF_KERNEL = floatKernel([1, 2, 1, 2, 4, 2, 1, 2, 1], 16);
/** ansnr_filter2d_dis_s: 5×5, applied to the distorted picture. */
export const ANSNR_DIS_KERNEL = floatKernel([2, 7, 12, 7, 2, 7, 31, 52, 31, 7, 12, 52, 127, 52, 12, 7, 31, 52, 31, 7, 2, 7, 12, 7, 2], 571);

/**
 * One 2-D filter pass over a picture padded by `pad` (≥ the kernel's radius), with the
 * result of ansnr_filter2d_s: per output sample, each kernel row is summed in float
 * (left to right), and the row sums are summed in float (top to bottom).
 *
 * A kernel row's sum depends only on the padded row and the coefficients, and the
 * kernels are symmetric top to bottom: so each padded row is summed once with each
 * distinct kernel row (`rowSums`), and an output sample adds the ones it needs: the
 * same float operations in the same order as libvmaf, about a third fewer of them, in
 * loops unrolled for libvmaf's two kernel sizes (3 and 5). `out` is packed (stride = width); `rowSums` holds ⌈size/2⌉ × (height + size − 1) × width floats.
 */
export function ansnrFilter2d(kernel: Float32Array, padded: Float32Array, pad: number, width: number, height: number, out: Float32Array, rowSums: Float32Array): void {
  const size = Math.round(Math.sqrt(kernel.length));
  if (size !== 3 && size !== 5) throw new Error(`ansnr filter: only 3x3 and 5x5 kernels, not ${kernel.length} coefficients`);
  const radius = size >> 1;
  const distinct = radius + 1; // kernel rows 0..radius; row size-1-k equals row k
  const rows = height + size - 1;
  const pw = width + 2 * pad;
  const start = pad - radius; // padded coordinate of the kernel's first tap
  const plane = rows * width;
  const fround = Math.fround;
  for (let k = 0; k < distinct; k++) {
    for (let r = 0; r < rows; r++) {
      const src = (r + start) * pw + start;
      const dst = k * plane + r * width;
      if (size === 3) rowSums3(kernel, k * 3, padded, src, rowSums, dst, width);
      else rowSums5(kernel, k * 5, padded, src, rowSums, dst, width);
    }
  }
  for (let y = 0; y < height; y++) {
    const o = y * width;
    // rows of the kernel top to bottom: 0, 1, 0 (3×3) and 0, 1, 2, 1, 0 (5×5)
    if (size === 3) {
      const a = y * width, b = plane + (y + 1) * width, c = (y + 2) * width;
      for (let x = 0; x < width; x++) out[o + x] = fround(fround(rowSums[a + x]! + rowSums[b + x]!) + rowSums[c + x]!);
    } else {
      const a = y * width, b = plane + (y + 1) * width, c = 2 * plane + (y + 2) * width, d = plane + (y + 3) * width, e = (y + 4) * width;
      for (let x = 0; x < width; x++) {
        out[o + x] = fround(fround(fround(fround(rowSums[a + x]! + rowSums[b + x]!) + rowSums[c + x]!) + rowSums[d + x]!) + rowSums[e + x]!);
      }
    }
  }
}

/** One kernel row (3 taps from `k`) summed along a padded row, unrolled: the JIT keeps the coefficients in registers. */
function rowSums3(kernel: Float32Array, k: number, src: Float32Array, s: number, out: Float32Array, o: number, width: number): void {
  const fround = Math.fround;
  const c0 = kernel[k]!, c1 = kernel[k + 1]!, c2 = kernel[k + 2]!;
  for (let x = 0; x < width; x++) {
    const i = s + x;
    out[o + x] = fround(fround(fround(c0 * src[i]!) + fround(c1 * src[i + 1]!)) + fround(c2 * src[i + 2]!));
  }
}

/** rowSums3 for 5 taps. */
function rowSums5(kernel: Float32Array, k: number, src: Float32Array, s: number, out: Float32Array, o: number, width: number): void {
  const fround = Math.fround;
  const c0 = kernel[k]!, c1 = kernel[k + 1]!, c2 = kernel[k + 2]!, c3 = kernel[k + 3]!, c4 = kernel[k + 4]!;
  for (let x = 0; x < width; x++) {
    const i = s + x;
    let v = fround(fround(c0 * src[i]!) + fround(c1 * src[i + 1]!));
    v = fround(v + fround(c2 * src[i + 2]!));
    v = fround(v + fround(c3 * src[i + 3]!));
    out[o + x] = fround(v + fround(c4 * src[i + 4]!));
  }
}

/** Floats ansnrFilter2d needs for its row sums with a kernel of `size`×`size`. */
export function ansnrRowSumsLength(size: number, width: number, height: number): number {
  return ((size >> 1) + 1) * (height + size - 1) * width;
}

/**
 * ansnr_mse_s: the signal (Σ ref²) and noise (Σ (ref − dis)²) energies of two filtered
 * pictures, each row summed in float, the row sums summed in float.
 */
export function ansnrEnergies(ref: Float32Array, dis: Float32Array, width: number, height: number): { signal: number; noise: number } {
  const fround = Math.fround;
  let signal = 0;
  let noise = 0;
  for (let y = 0; y < height; y++) {
    let rowSignal = 0;
    let rowNoise = 0;
    for (let i = y * width, end = i + width; i < end; i++) {
      const r = ref[i]!;
      const d = fround(r - dis[i]!);
      rowSignal = fround(rowSignal + fround(r * r));
      rowNoise = fround(rowNoise + fround(d * d));
    }
    signal = fround(signal + rowSignal);
    noise = fround(noise + rowNoise);
  }
  return { signal, noise };
}
