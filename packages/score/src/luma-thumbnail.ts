import type { Picture } from "@vq/core";

/** A picture's luma averaged over a small grid of cells, in 8-bit units whatever the bit depth. */
export interface LumaThumbnail {
  readonly width: number;
  readonly height: number;
  readonly cells: Float32Array;
}

/** Columns of a thumbnail: enough to see motion, few enough that comparing hundreds of pairs is instant. */
export const THUMBNAIL_WIDTH = 128;

/**
 * The grid both inputs are reduced to: the reference's aspect, at most THUMBNAIL_WIDTH
 * columns, and no finer than either input, so inputs of different sizes compare cell by cell.
 */
export function thumbnailGrid(a: { width: number; height: number }, b: { width: number; height: number }): { width: number; height: number } {
  const width = Math.min(THUMBNAIL_WIDTH, a.width, b.width);
  const height = Math.max(1, Math.min(a.height, b.height, Math.round((width * a.height) / a.width)));
  return { width, height };
}

/** Cell (x, y) averages the luma samples whose position falls in it (box filter over the whole picture). */
export function lumaThumbnail(picture: Picture, grid: { width: number; height: number }): LumaThumbnail {
  const luma = picture.planes[0]!;
  const data = luma.data;
  const sums = new Float64Array(grid.width * grid.height);
  const counts = new Uint32Array(grid.width * grid.height);
  // Column spans of the cells: each row is summed span by span, one write per cell and row.
  const starts = Array.from({ length: grid.width + 1 }, (_, c) => Math.ceil((c * luma.width) / grid.width));
  for (let y = 0; y < luma.height; y++) {
    const row = Math.floor((y * grid.height) / luma.height) * grid.width;
    const at = y * luma.stride;
    for (let c = 0; c < grid.width; c++) {
      let sum = 0;
      for (let x = at + starts[c]!, end = at + starts[c + 1]!; x < end; x++) sum += data[x]!;
      sums[row + c]! += sum;
      counts[row + c]! += starts[c + 1]! - starts[c]!;
    }
  }
  const scale = 1 / (1 << (picture.bitDepth - 8));
  const cells = new Float32Array(sums.length);
  for (let i = 0; i < cells.length; i++) cells[i] = (sums[i]! / counts[i]!) * scale;
  return { width: grid.width, height: grid.height, cells };
}

/** Mean squared difference of two thumbnails of one grid. */
export function thumbnailMse(a: LumaThumbnail, b: LumaThumbnail): number {
  let sum = 0;
  for (let i = 0; i < a.cells.length; i++) {
    const d = a.cells[i]! - b.cells[i]!;
    sum += d * d;
  }
  return sum / a.cells.length;
}
