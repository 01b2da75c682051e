import type { MaskSpans } from "./mask-spans.ts";

/**
 * cambi's 3x3 separable mode filter (mode3: the value two of three share, else the
 * smallest): each row is filtered horizontally (first and last column kept), then every
 * row but the first and last becomes the vertical mode of the three horizontally
 * filtered rows around it; the first and last rows keep their samples, as in libvmaf.
 *
 * Later steps read the filtered picture only under the mask and, for the next scale,
 * at even rows and columns. When the mask is sparse only those samples are filtered
 * (horizontal modes at even columns, kept for three rows; the rest per masked pixel);
 * when it is dense the whole picture is, in place. Both give libvmaf's values.
 *
 * mode3 is computed without branches: natural pictures make its comparisons unpredictable.
 */
export class ModeFilter {
  private readonly lines: Uint16Array;
  private readonly evenLines: Uint16Array;

  constructor(maxWidth: number) {
    this.lines = new Uint16Array(3 * maxWidth);
    this.evenLines = new Uint16Array(3 * ((maxWidth + 1) >> 1));
  }

  /**
   * Filters `image` (`width`×`height`) and returns the buffer holding the filtered
   * samples under `mask` (`image` itself or `filtered`); with `next`, also writes the
   * next scale's picture there (every other sample of every other row).
   */
  run(image: Uint16Array, width: number, height: number, mask: MaskSpans, filtered: Uint16Array, next: Uint16Array | null): Uint16Array {
    // per masked pixel the sparse path costs about 2.5 modes, the whole picture 2 per pixel
    if (mask.pixels > 0.4 * width * height) {
      this.apply(image, width, height);
      if (next) decimate(image, width, height, next);
      return image;
    }
    this.sparse(image, width, height, mask, filtered, next);
    return filtered;
  }

  /** The whole picture, in place. */
  apply(data: Uint16Array, width: number, height: number): void {
    const lines = this.lines;
    const w2 = 2 * width;
    let line = 0;
    for (let i = 0; i < height; i++) {
      const row = i * width;
      const o = line * width;
      let a = data[row]!;
      let b = data[row + 1]!;
      lines[o] = a;
      for (let j = 1; j < width - 1; j++) {
        const c = data[row + j + 1]!;
        lines[o + j] = mode3(a, b, c);
        a = b;
        b = c;
      }
      lines[o + width - 1] = data[row + width - 1]!;
      if (i > 1) {
        const out = row - width;
        for (let j = 0; j < width; j++) {
          const p = lines[j]!;
          const q = lines[width + j]!;
          const r = lines[w2 + j]!;
          data[out + j] = mode3(p, q, r);
        }
      }
      line = line === 2 ? 0 : line + 1;
    }
  }

  private sparse(image: Uint16Array, width: number, height: number, mask: MaskSpans, filtered: Uint16Array, next: Uint16Array | null): void {
    const even = this.evenLines;
    const half = (width + 1) >> 1;
    const { rowStart, start, end } = mask;
    this.evenRow(image, width, 0, 0);
    for (let i = 0; i < height; i++) {
      if (i + 1 < height) this.evenRow(image, width, i + 1, ((i + 1) % 3) * half);
      const row = i * width;
      const edge = i === 0 || i === height - 1;
      // slots of rows i - 1, i, i + 1 in the ring of even-column horizontal modes
      const above = ((i + 2) % 3) * half;
      const here = (i % 3) * half;
      const below = ((i + 1) % 3) * half;
      if (next && (i & 1) === 0) {
        const out = (i >> 1) * half;
        if (edge) {
          for (let j = 0; j < half; j++) next[out + j] = image[row + 2 * j]!;
        } else {
          for (let j = 0; j < half; j++) {
            const p = even[above + j]!;
            const q = even[here + j]!;
            const r = even[below + j]!;
            next[out + j] = mode3(p, q, r);
          }
        }
      }
      for (let s = rowStart[i]!, last = rowStart[i + 1]!; s < last; s++) {
        const x1 = end[s]!;
        if (edge) {
          for (let x = start[s]!; x <= x1; x++) filtered[row + x] = image[row + x]!;
          continue;
        }
        for (let x = start[s]!; x <= x1; x++) {
          let p: number;
          let q: number;
          let r: number;
          if ((x & 1) === 0) {
            const j = x >> 1;
            p = even[above + j]!;
            q = even[here + j]!;
            r = even[below + j]!;
          } else if (x === width - 1) {
            p = image[row - width + x]!;
            q = image[row + x]!;
            r = image[row + width + x]!;
          } else {
            p = horizontalMode(image, row - width + x);
            q = horizontalMode(image, row + x);
            r = horizontalMode(image, row + width + x);
          }
          filtered[row + x] = mode3(p, q, r);
        }
      }
    }
  }

  /** Horizontal modes of row `y` at even columns into the ring at `o`. */
  private evenRow(image: Uint16Array, width: number, y: number, o: number): void {
    const even = this.evenLines;
    const row = y * width;
    const half = (width + 1) >> 1;
    even[o] = image[row]!;
    for (let j = 1; j < half; j++) {
      const x = row + 2 * j;
      if (2 * j === width - 1) {
        even[o + j] = image[x]!;
      } else {
        const a = image[x - 1]!;
        const b = image[x]!;
        const c = image[x + 1]!;
        even[o + j] = mode3(a, b, c);
      }
    }
  }
}

/** mode3 of the sample at `k` and its left and right neighbours. */
function horizontalMode(image: Uint16Array, k: number): number {
  const a = image[k - 1]!;
  const b = image[k]!;
  const c = image[k + 1]!;
  return mode3(a, b, c);
}

/** libvmaf's mode3 for samples below 2^31: a if it equals b or c, else b if b equals c, else the minimum. */
function mode3(a: number, b: number, c: number): number {
  const min = Math.min(a, b, c);
  const bc = ((b ^ c) - 1) >> 31; // -1 when equal, else 0
  const ab = (((a ^ b) - 1) | ((a ^ c) - 1)) >> 31;
  const r = min ^ ((min ^ b) & bc);
  return r ^ ((r ^ a) & ab);
}

/** Every other sample of every other row of `data` into `out`: the next scale's picture. */
export function decimate(data: Uint16Array, width: number, height: number, out: Uint16Array): void {
  const outWidth = (width + 1) >> 1;
  const outHeight = (height + 1) >> 1;
  for (let i = 0; i < outHeight; i++) {
    const src = 2 * i * width;
    const dst = i * outWidth;
    for (let j = 0; j < outWidth; j++) out[dst + j] = data[src + 2 * j]!;
  }
}
