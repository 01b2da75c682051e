/**
 * cambi's spatial mask as spans: per row, the column ranges [start, end] (inclusive, in
 * column order) where the mask is 1. The mask marks flat areas, usually a small part of
 * a picture, so spans let every later step skip the rest without looking at it.
 */
export class MaskSpans {
  /** Spans of row y are indices rowStart[y] to rowStart[y + 1] - 1. */
  readonly rowStart: Int32Array;
  start: Int32Array;
  end: Int32Array;
  private n = 0;
  /** Pixels under the mask. */
  pixels = 0;

  /** `storage`: arrays to use instead (the WebAssembly kernels' memory), with room for every span a picture can have. */
  constructor(maxHeight: number, initialCapacity: number, storage?: { rowStart: Int32Array; start: Int32Array; end: Int32Array }) {
    this.rowStart = storage?.rowStart ?? new Int32Array(maxHeight + 1);
    this.start = storage?.start ?? new Int32Array(initialCapacity);
    this.end = storage?.end ?? new Int32Array(initialCapacity);
  }

  /** The spans of a `height`-row picture were written into the arrays elsewhere (the kernels): `count` of them, covering `pixels`. */
  written(height: number, count: number, pixels: number): void {
    if (this.rowStart[height] !== count) throw new Error(`cambi: ${count} mask spans written, rowStart says ${this.rowStart[height]}`);
    this.n = count;
    this.pixels = pixels;
  }

  /** Starts a new picture; rows are then filled in order with beginRow/push and closed by finish. */
  reset(): void {
    this.n = 0;
    this.pixels = 0;
  }

  beginRow(y: number): void {
    this.rowStart[y] = this.n;
  }

  push(start: number, end: number): void {
    if (this.n === this.start.length) this.grow();
    this.start[this.n] = start;
    this.end[this.n] = end;
    this.n++;
    this.pixels += end - start + 1;
  }

  finish(height: number): void {
    this.rowStart[height] = this.n;
  }

  /**
   * The mask of the next scale, in place: row y keeps the even columns of row 2y, so a
   * span [a, b] becomes [⌈a/2⌉, ⌊b/2⌋] when that is not empty.
   */
  decimate(outHeight: number): void {
    const { rowStart, start, end } = this;
    let n = 0;
    let pixels = 0;
    for (let y = 0; y < outHeight; y++) {
      // reads stay ahead of writes: row 2y's spans sit at or after index n
      const first = rowStart[2 * y]!;
      const last = rowStart[2 * y + 1]!;
      rowStart[y] = n;
      for (let k = first; k < last; k++) {
        const a = (start[k]! + 1) >> 1;
        const b = end[k]! >> 1;
        if (a <= b) {
          start[n] = a;
          end[n] = b;
          n++;
          pixels += b - a + 1;
        }
      }
    }
    rowStart[outHeight] = n;
    this.n = n;
    this.pixels = pixels;
  }

  private grow(): void {
    const size = this.start.length * 2;
    const s = new Int32Array(size);
    s.set(this.start);
    const e = new Int32Array(size);
    e.set(this.end);
    this.start = s;
    this.end = e;
  }
}
