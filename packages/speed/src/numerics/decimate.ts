/**
 * SpEED's multi-scale step (filter_and_downscale): the anti-alias Gaussian over the
 * (pre-scaled) picture, decimation by 16, then subtraction of the local mean. libvmaf
 * filters every sample and keeps one in 256; the filter's value at a kept sample does
 * not depend on the others, so only the kept ones (and the columns they read) are
 * computed, with the same float operations in the same order.
 */
import { allocateImage, type FloatImage } from "./float-image.ts";
import type { PlaneSize } from "./speed-geometry.ts";

const f32 = Math.fround;

/** vif_filter1d_s's reflection at the edges (the edge sample is not repeated). */
export function mirrorIndex(i: number, n: number): number {
  return i < 0 ? -i : i >= n ? 2 * n - i - 2 : i;
}

export class Decimator {
  /** Source columns any kept sample reads. */
  private readonly columns: Int32Array;
  /** Per kept column, its taps' source columns. */
  private readonly tapColumns: Int32Array;
  private readonly row: Float32Array;

  constructor(private readonly scaled: PlaneSize, private readonly decimated: PlaneSize, private readonly taps: Float32Array) {
    const half = taps.length >> 1;
    const used = new Set<number>();
    this.tapColumns = new Int32Array(decimated.width * taps.length);
    for (let j = 0; j < decimated.width; j++) {
      for (let k = 0; k < taps.length; k++) {
        const c = mirrorIndex(16 * j - half + k, scaled.width);
        this.tapColumns[j * taps.length + k] = c;
        used.add(c);
      }
    }
    this.columns = Int32Array.from([...used].sort((a, b) => a - b));
    this.row = new Float32Array(scaled.width);
  }

  /** src: the scaled picture; out: the decimated, filtered picture. */
  run(src: FloatImage, out: FloatImage): void {
    const { taps, columns, tapColumns, row } = this;
    const n = taps.length;
    const half = n >> 1;
    const w = this.scaled.width;
    const s = src.data;
    const rowStarts = new Int32Array(n);
    for (let i = 0; i < this.decimated.height; i++) {
      for (let k = 0; k < n; k++) rowStarts[k] = mirrorIndex(16 * i - half + k, this.scaled.height) * w;
      // vertical pass, at the columns the kept samples read
      for (let ci = 0; ci < columns.length; ci++) {
        const c = columns[ci]!;
        let acc = 0;
        for (let k = 0; k < n; k++) acc = f32(acc + f32(taps[k]! * s[rowStarts[k]! + c]!));
        row[c] = acc;
      }
      // horizontal pass, at the kept samples
      for (let j = 0; j < this.decimated.width; j++) {
        let acc = 0;
        const t = j * n;
        for (let k = 0; k < n; k++) acc = f32(acc + f32(taps[k]! * row[tapColumns[t + k]!]!));
        out.data[i * out.width + j] = acc;
      }
    }
  }
}

/**
 * vif_filter1d_s with the scale-4 Gaussian over the decimated picture, subtracted from
 * it in place: what is left is the local detail SpEED models.
 */
export class LocalMeanRemover {
  private readonly mean: FloatImage;
  private readonly row: Float32Array;

  constructor(private readonly size: PlaneSize, private readonly taps: Float32Array) {
    this.mean = allocateImage(size);
    this.row = new Float32Array(size.width);
  }

  run(image: FloatImage): void {
    const { width: w, height: h } = this.size;
    const { taps, row, mean } = this;
    const n = taps.length;
    const half = n >> 1;
    const s = image.data;
    for (let i = 0; i < h; i++) {
      for (let j = 0; j < w; j++) {
        let acc = 0;
        for (let k = 0; k < n; k++) acc = f32(acc + f32(taps[k]! * s[mirrorIndex(i - half + k, h) * w + j]!));
        row[j] = acc;
      }
      for (let j = 0; j < w; j++) {
        let acc = 0;
        for (let k = 0; k < n; k++) acc = f32(acc + f32(taps[k]! * row[mirrorIndex(j - half + k, w)]!));
        mean.data[i * w + j] = acc;
      }
    }
    for (let i = 0; i < w * h; i++) s[i] = s[i]! - mean.data[i]!;
  }
}
