import { VqError, type Plane } from "@vq/core";

/** libvmaf's picture rows are padded to 32 samples (picture.c's DATA_ALIGN). */
export function libvmafStride(width: number): number {
  return (width + 31) & ~31;
}

/** Rejects luma samples above the bit depth's maximum, as libvmaf's cambi does (8 and 16 bits cannot exceed it). */
export function checkLumaRange(plane: Plane, bitDepth: number): void {
  if (bitDepth === 8 || bitDepth === 16) return;
  const max = (1 << bitDepth) - 1;
  const { data, stride, width, height } = plane;
  for (let y = 0; y < height; y++) {
    for (let i = y * stride, end = i + width; i < end; i++) {
      if (data[i]! > max) {
        throw new VqError(`feature cambi: invalid input: luma sample ${data[i]} at (${i - y * stride}, ${y}) exceeds ${max}, the maximum for ${bitDepth}-bit input`);
      }
    }
  }
}

/**
 * Luma converted to 10 bits (8 and 9 bits shifted up; 11 and more rounded down) at
 * `outWidth`×`outHeight`, by nearest-neighbour resampling in libvmaf's float steps when
 * the size differs. Output rows are packed (stride = outWidth).
 *
 * `allocWidth` is the width of libvmaf's working picture. For 10-bit input of the same
 * size libvmaf copies the rows with the input's stride into a picture whose stride may
 * be larger (full_ref with a larger source size): rows then shift, and so do they here.
 */
export function toTenBit(plane: Plane, bitDepth: number, outWidth: number, outHeight: number, allocWidth: number, out: Uint16Array): void {
  const { data, stride, width: inWidth, height: inHeight } = plane;
  const same = inWidth === outWidth && inHeight === outHeight;
  if (same && bitDepth === 10 && libvmafStride(inWidth) !== libvmafStride(allocWidth)) {
    copyWithStrideMismatch(plane, libvmafStride(inWidth), libvmafStride(allocWidth), outWidth, outHeight, out);
    return;
  }
  const up = bitDepth <= 8 ? 10 - bitDepth : bitDepth === 9 ? 1 : 0;
  const down = bitDepth > 10 ? bitDepth - 10 : 0;
  const round = down === 0 ? 0 : 1 << (down - 1);
  if (same) {
    for (let y = 0; y < outHeight; y++) {
      let i = y * stride;
      let o = y * outWidth;
      const end = o + outWidth;
      if (down) for (; o < end; o++, i++) out[o] = (data[i]! + round) >> down;
      else if (up) for (; o < end; o++, i++) out[o] = data[i]! << up;
      else out.set(data.subarray(i, i + outWidth), o); // 10 bits: the row as it is
    }
    return;
  }
  const columns = resampleIndices(inWidth, outWidth);
  const rows = resampleIndices(inHeight, outHeight);
  for (let y = 0; y < outHeight; y++) {
    const row = rows[y]! * stride;
    const o = y * outWidth;
    for (let x = 0; x < outWidth; x++) {
      const v = data[row + columns[x]!]!;
      out[o + x] = down ? (v + round) >> down : v << up;
    }
  }
}

/**
 * The source index of each of `outSize` nearest-neighbour samples taken from `inSize`:
 * libvmaf steps through the source in float, ratio and position rounded to float each step.
 */
export function resampleIndices(inSize: number, outSize: number): Int32Array {
  const ratio = Math.fround(inSize / outSize);
  let f = Math.fround(ratio / 2 - 0.5);
  const out = new Int32Array(outSize);
  for (let i = 0; i < outSize; i++) {
    out[i] = Math.trunc(f + 0.5);
    f = Math.fround(f + ratio);
  }
  return out;
}

/** libvmaf's memcpy of `inStride`-strided rows into an `outStride`-strided picture (padding read as 0). */
function copyWithStrideMismatch(plane: Plane, inStride: number, outStride: number, outWidth: number, outHeight: number, out: Uint16Array): void {
  const total = inStride * plane.height;
  for (let y = 0; y < outHeight; y++) {
    for (let x = 0; x < outWidth; x++) {
      const k = y * outStride + x;
      let v = 0;
      if (k < total) {
        const r = Math.floor(k / inStride);
        const c = k - r * inStride;
        if (c < plane.width) v = plane.data[r * plane.stride + c]!;
      }
      out[y * outWidth + x] = v;
    }
  }
}

/**
 * libvmaf's anti-dithering filter for encodes below 10 bits: each sample becomes the mean
 * (rounded down) of its 2x2 block to the right and below; the last column and row average
 * two samples; the corner stays. In place, reading only samples not yet overwritten.
 */
export function antiDither(data: Uint16Array, width: number, height: number): void {
  for (let y = 0; y < height - 1; y++) {
    const r = y * width;
    const n = r + width;
    for (let x = 0; x < width - 1; x++) {
      data[r + x] = (data[r + x]! + data[r + x + 1]! + data[n + x]! + data[n + x + 1]!) >> 2;
    }
    data[r + width - 1] = (data[r + width - 1]! + data[n + width - 1]!) >> 1;
  }
  const r = (height - 1) * width;
  for (let x = 0; x < width - 1; x++) data[r + x] = (data[r + x]! + data[r + x + 1]!) >> 1;
}

/**
 * toTenBit then antiDither for 8-bit input at its own size, in one pass: four samples
 * shifted up by 2 and averaged down by 4 are just their sum (two: twice their sum).
 */
export function antiDitheredFrom8Bit(plane: Plane, out: Uint16Array): void {
  const { data, stride, width, height } = plane;
  for (let y = 0; y < height - 1; y++) {
    let i = y * stride;
    let o = y * width;
    let left = data[i]! + data[i + stride]!;
    for (const end = o + width - 1; o < end; o++, i++) {
      const right = data[i + 1]! + data[i + 1 + stride]!;
      out[o] = left + right;
      left = right;
    }
    out[o] = left << 1;
  }
  const i = (height - 1) * stride;
  const o = (height - 1) * width;
  for (let x = 0; x < width - 1; x++) out[o + x] = (data[i + x]! + data[i + x + 1]!) << 1;
  out[o + width - 1] = data[i + width - 1]! << 2;
}
