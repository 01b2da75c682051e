import type { MaskSpans } from "./mask-spans.ts";

/** Side of the square over which flat pixels are counted. */
const MASK_FILTER_SIZE = 7;
const MASK_PAD = MASK_FILTER_SIZE >> 1;

function ceilLog2(n: number): number {
  if (n === 0) return 0;
  let t = n - 1;
  let shift = 0;
  while (t > 0) {
    t >>>= 1;
    shift++;
  }
  return shift;
}

/** How many of the 49 pixels around a pixel must be flat for it to count, by picture size (libvmaf's rule). */
export function maskThreshold(width: number, height: number): number {
  const shifted = (width >> 6) * (height >> 6);
  return (MASK_FILTER_SIZE * MASK_FILTER_SIZE + 3 * (ceilLog2(shifted) - 11) - 1) >> 1;
}

/**
 * cambi's spatial mask: a pixel is "flat" when it equals its right and lower neighbours
 * (the last column and row count as equal); the mask is 1 where more than `maskThreshold`
 * of the 7x7 pixels around it (clipped to the picture) are flat. Column sums of flatness
 * over 7 rows, kept in a ring of 7 rows (the row entering replaces the one leaving), then
 * a sliding sum along the row: constant work per pixel. The result is written as spans.
 */
export class SpatialMask {
  private readonly ring: Uint8Array;
  private readonly columns: Int32Array;

  constructor(maxWidth: number) {
    this.ring = new Uint8Array(MASK_FILTER_SIZE * maxWidth);
    this.columns = new Int32Array(maxWidth);
  }

  compute(image: Uint16Array, width: number, height: number, spans: MaskSpans): void {
    const threshold = maskThreshold(width, height);
    const { ring, columns } = this;
    ring.fill(0, 0, MASK_FILTER_SIZE * width);
    columns.fill(0, 0, width);
    spans.reset();
    for (let r = 0; r < MASK_PAD; r++) this.enterRow(image, width, height, r);
    for (let i = 0; i < height; i++) {
      // row i + 3 enters where row i - 4 leaves: the same ring slot
      this.enterRow(image, width, height, i + MASK_PAD);
      spans.beginRow(i);
      let sum = 0;
      for (let c = 0; c < MASK_PAD && c < width; c++) sum += columns[c]!;
      // open: where the current span started, -1 outside one
      let open = -1;
      const last = width - MASK_PAD;
      let j = 0;
      for (; j <= MASK_PAD && j < width; j++) {
        if (j + MASK_PAD < width) sum += columns[j + MASK_PAD]!;
        if (sum > threshold) {
          if (open < 0) open = j;
        } else if (open >= 0) {
          spans.push(open, j - 1);
          open = -1;
        }
      }
      for (; j < last; j++) {
        sum += columns[j + MASK_PAD]! - columns[j - MASK_PAD - 1]!;
        if (sum > threshold) {
          if (open < 0) open = j;
        } else if (open >= 0) {
          spans.push(open, j - 1);
          open = -1;
        }
      }
      for (; j < width; j++) {
        if (j - MASK_PAD - 1 >= 0) sum -= columns[j - MASK_PAD - 1]!;
        if (sum > threshold) {
          if (open < 0) open = j;
        } else if (open >= 0) {
          spans.push(open, j - 1);
          open = -1;
        }
      }
      if (open >= 0) spans.push(open, width - 1);
    }
    spans.finish(height);
  }

  /** Puts the flatness of row `r` (none past the last row) in its ring slot, updating the column sums. */
  private enterRow(image: Uint16Array, width: number, height: number, r: number): void {
    const { ring, columns } = this;
    const o = (r % MASK_FILTER_SIZE) * width;
    if (r >= height) {
      for (let c = 0; c < width; c++) {
        columns[c]! -= ring[o + c]!;
        ring[o + c] = 0;
      }
      return;
    }
    const row = r * width;
    const last = width - 1;
    if (r === height - 1) {
      for (let c = 0; c < last; c++) {
        const f = image[row + c] === image[row + c + 1] ? 1 : 0;
        columns[c]! += f - ring[o + c]!;
        ring[o + c] = f;
      }
    } else {
      const below = row + width;
      for (let c = 0; c < last; c++) {
        const v = image[row + c];
        const f = v === image[row + c + 1] && v === image[below + c] ? 1 : 0;
        columns[c]! += f - ring[o + c]!;
        ring[o + c] = f;
      }
    }
    const f = r === height - 1 || image[row + last] === image[row + width + last] ? 1 : 0;
    columns[last]! += f - ring[o + last]!;
    ring[o + last] = f;
  }
}
