import type { MaskSpans } from "./mask-spans.ts";

/**
 * The pixels that take part in cambi's histograms, row by row, as runs of equal codes: a
 * pixel takes part when it is masked and its code lies in the plan's band. Runs are
 * [start, end] column ranges (inclusive) with the histogram row of their code. Masked
 * areas are flat and often sparse, so runs are few and long; working on runs instead of
 * pixels is what keeps the sliding histograms cheap.
 */
export class CodeRuns {
  /** Runs of row y are indices rowStart[y] to rowStart[y + 1] - 1. */
  readonly rowStart: Int32Array;
  start: Int32Array;
  end: Int32Array;
  code: Int32Array;

  constructor(maxHeight: number, initialCapacity: number) {
    this.rowStart = new Int32Array(maxHeight + 1);
    this.start = new Int32Array(initialCapacity);
    this.end = new Int32Array(initialCapacity);
    this.code = new Int32Array(initialCapacity);
  }

  /**
   * Finds the runs of a `width`×`height` picture: code k (0-based in the band) is stored
   * as histogram row k + rowOffset.
   */
  build(image: Uint16Array, mask: MaskSpans, width: number, height: number, bandBase: number, bandSize: number, rowOffset: number): void {
    const rowStart = this.rowStart;
    const { rowStart: spanRow, start: spanStart, end: spanEnd } = mask;
    let n = 0;
    for (let y = 0; y < height; y++) {
      rowStart[y] = n;
      const row = y * width;
      for (let s = spanRow[y]!, last = spanRow[y + 1]!; s < last; s++) {
        const stop = row + spanEnd[s]! + 1;
        let k = row + spanStart[s]!;
        while (k < stop) {
          const v = image[k]!;
          const u = v - bandBase;
          let k1 = k + 1;
          while (k1 < stop && image[k1] === v) k1++;
          if (u >= 0 && u < bandSize) {
            if (n === this.start.length) this.grow();
            this.start[n] = k - row;
            this.end[n] = k1 - 1 - row;
            this.code[n] = u + rowOffset;
            n++;
          }
          k = k1;
        }
      }
    }
    rowStart[height] = n;
  }

  private grow(): void {
    const size = this.start.length * 2;
    const grown = (a: Int32Array) => {
      const b = new Int32Array(size);
      b.set(a);
      return b;
    };
    this.start = grown(this.start);
    this.end = grown(this.end);
    this.code = grown(this.code);
  }
}
