/**
 * libvmaf's mirrored borders (reflection without repeating the edge sample): the filters
 * read `half` samples beyond each edge from copies written before filtering.
 */

/** Rows -1..-half and h..h-1+half of a plane whose row 0 starts at `origin` (pad_top_and_bottom). */
export function mirrorRows(plane: Float32Array | Float64Array, origin: number, stride: number, width: number, height: number, half: number): void {
  const last = origin + (height - 1) * stride;
  for (let i = 1; i <= half; i++) {
    plane.copyWithin(origin - i * stride, origin + i * stride, origin + i * stride + width);
    plane.copyWithin(last + i * stride, last - i * stride, last - i * stride + width);
  }
}

/** Samples -1..-half and w..w-1+half of one row whose sample 0 is at `origin` (PADDING_SQ_DATA). */
export function mirrorRow(row: Float64Array, origin: number, width: number, half: number): void {
  const last = origin + width - 1;
  for (let f = 1; f <= half; f++) {
    row[origin - f] = row[origin + f]!;
    row[last + f] = row[last - f]!;
  }
}
