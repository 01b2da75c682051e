import type { CambiPlan } from "../numerics/cambi-plan.ts";
import { CodeRuns } from "./code-runs.ts";
import type { MaskSpans } from "./mask-spans.ts";
import { RECIPROCAL } from "../numerics/reciprocal.ts";

/**
 * cambi's c-values: for every masked pixel whose code v can band, the strongest contrast
 * response, max over steps d of w_d · p(v) · p(v ± (d+1)) / (p(v) + p(v ± (d+1))) taking
 * the larger neighbour count, where p(u) counts the masked pixels of code u in the
 * window around the pixel (clipped to the picture). Float arithmetic as libvmaf's: the
 * integer product rounded to float, times the float reciprocal table.
 *
 * The counts come from sliding histograms, hist[u][x] = pixels of code u in the window
 * around column x of the current row, for the codes of the plan's band. Moving down a
 * row adds the entering row and removes the leaving one, where they differ; a run of
 * equal codes from x0 to x1 adds a trapezoid (min(c + pad, x1) - max(c - pad, x0) + 1
 * at column c) instead of one range per pixel.
 *
 * The non-zero c-values are kept as a sparse list in row-major order (pooling rarely
 * needs more); `writeDense` spreads them into a full picture when it does.
 */
export class CValues {
  private readonly hist: Uint16Array;
  /** Histogram row of band code 0: numDiffs zero rows each side, so no step indexes outside. */
  private readonly rowOffset: number;
  private readonly histRows: number;
  /** Per band code: bit d set when step d passes libvmaf's visibility tests for that code. */
  private readonly steps: Uint32Array;
  /** Per band code: its lowest step passing them (the tests pass from there on in practice). */
  private readonly firstStep: Uint8Array;
  private readonly runs: CodeRuns;
  /** Non-zero c-values and where they are (row-major index), in row-major order; grown as needed. */
  positions: Int32Array;
  values: Float32Array;
  count = 0;
  /** Their sum, in double, in row-major order. */
  sum = 0;
  // the trapezoid being merged, per sign (code -1: none)
  private pendingCode = [-1, -1];
  private pendingStart = [0, 0];
  private pendingEnd = [0, 0];
  private width = 0;
  private pad = 0;

  constructor(private readonly plan: CambiPlan, maxWidth: number, maxHeight: number) {
    const { numDiffs, bandSize } = plan;
    this.rowOffset = numDiffs;
    this.histRows = bandSize + 2 * numDiffs + 1;
    this.hist = new Uint16Array(this.histRows * maxWidth);
    this.steps = visibleSteps(plan);
    this.firstStep = Uint8Array.from(this.steps, (bits) => (bits === 0 ? 0 : 31 - Math.clz32(bits & -bits)));
    this.runs = new CodeRuns(maxHeight, Math.max(1024, (maxWidth * maxHeight) >> 4));
    this.positions = new Int32Array(Math.max(1024, (maxWidth * maxHeight) >> 4));
    this.values = new Float32Array(this.positions.length);
  }

  compute(image: Uint16Array, mask: MaskSpans, width: number, height: number, windowSize: number): void {
    const { plan, hist } = this;
    const pad = windowSize >> 1;
    this.width = width;
    this.pad = pad;
    this.runs.build(image, mask, width, height, plan.bandBase, plan.bandSize, this.rowOffset);
    hist.fill(0, 0, this.histRows * width);
    this.count = 0;
    this.sum = 0;
    for (let r = 0; r < pad; r++) this.slide(r, -1);
    for (let i = 0; i < height; i++) {
      this.slide(i + pad < height ? i + pad : -1, i - pad - 1);
      this.cValuesRow(i);
    }
  }

  /** The c-values as a full `width`×`height` picture (zero where none). */
  writeDense(out: Float32Array, n: number): void {
    out.fill(0, 0, n);
    const { positions, values } = this;
    for (let j = 0; j < this.count; j++) out[positions[j]!] = values[j]!;
  }

  /**
   * Adds row `add` and removes row `remove` (-1: none), walking both rows' runs in
   * column order; where both rows hold the same code the two cancel and nothing is done.
   */
  private slide(add: number, remove: number): void {
    const { rowStart, start, end, code } = this.runs;
    let ia = add >= 0 ? rowStart[add]! : 0;
    const ea = add >= 0 ? rowStart[add + 1]! : 0;
    let ib = remove >= 0 ? rowStart[remove]! : 0;
    const eb = remove >= 0 ? rowStart[remove + 1]! : 0;
    let pos = 0;
    const NONE = 0x7fffffff;
    while (ia < ea || ib < eb) {
      const as = ia < ea ? Math.max(start[ia]!, pos) : NONE;
      const bs = ib < eb ? Math.max(start[ib]!, pos) : NONE;
      if (as === bs) {
        const ae = end[ia]!;
        const be = end[ib]!;
        const e = ae < be ? ae : be;
        if (code[ia] !== code[ib]) {
          this.piece(0, code[ia]!, as, e);
          this.piece(1, code[ib]!, as, e);
        }
        pos = e + 1;
        if (ae === e) ia++;
        if (be === e) ib++;
      } else if (as < bs) {
        const ae = end[ia]!;
        const e = ae < bs - 1 ? ae : bs - 1;
        this.piece(0, code[ia]!, as, e);
        pos = e + 1;
        if (ae === e) ia++;
      } else {
        const be = end[ib]!;
        const e = be < as - 1 ? be : as - 1;
        this.piece(1, code[ib]!, bs, e);
        pos = e + 1;
        if (be === e) ib++;
      }
    }
    this.flushPiece(0);
    this.flushPiece(1);
  }

  /** Queues columns [x0, x1] of histogram row `row` for adding (side 0) or removing (side 1), merging adjacent pieces. */
  private piece(side: number, row: number, x0: number, x1: number): void {
    if (this.pendingCode[side] === row && this.pendingEnd[side]! + 1 === x0) {
      this.pendingEnd[side] = x1;
      return;
    }
    this.flushPiece(side);
    this.pendingCode[side] = row;
    this.pendingStart[side] = x0;
    this.pendingEnd[side] = x1;
  }

  private flushPiece(side: number): void {
    const row = this.pendingCode[side]!;
    if (row < 0) return;
    this.pendingCode[side] = -1;
    this.trapezoid(row, this.pendingStart[side]!, this.pendingEnd[side]!, side === 0 ? 1 : -1);
  }

  /**
   * Adds `sign` per pixel of columns [x0, x1] of histogram row `row` to every column
   * within `pad` of it: min(c + pad, x1) - max(c - pad, x0) + 1 at column c, which rises
   * by one per column, stays flat, then falls by one per column.
   */
  private trapezoid(row: number, x0: number, x1: number, sign: number): void {
    const { hist, width, pad } = this;
    const base = row * width;
    const lo = x0 - pad > 0 ? x0 - pad : 0;
    const end = x1 + pad < width - 1 ? x1 + pad + 1 : width;
    // the right edge stops at x1 from column x1 - pad on, the left edge starts moving after x0 + pad
    const rightStops = x1 - pad;
    const leftMoves = x0 + pad + 1;
    const flatFrom = Math.min(Math.max(Math.min(rightStops, leftMoves), lo), end);
    const flatTo = Math.min(Math.max(Math.max(rightStops, leftMoves), flatFrom), end);
    let c = lo;
    for (let amount = sign * (c + pad - x0 + 1); c < flatFrom; c++, amount += sign) hist[base + c]! += amount;
    const flat = sign * (rightStops <= leftMoves - 1 ? x1 - x0 + 1 : 2 * pad + 1);
    for (; c < flatTo; c++) hist[base + c]! += flat;
    for (let amount = sign * (x1 - c + pad + 1); c < end; c++, amount -= sign) hist[base + c]! += amount;
  }

  private cValuesRow(i: number): void {
    const { hist, steps, firstStep, rowOffset, width } = this;
    let { positions, values } = this;
    const { diffWeights, numDiffs } = this.plan;
    const { rowStart, start, end, code } = this.runs;
    let count = this.count;
    let sum = 0;
    for (let j = rowStart[i]!, last = rowStart[i + 1]!; j < last; j++) {
      const row = code[j]!;
      const bits = steps[row - rowOffset]!;
      if (bits === 0) continue;
      const d0 = firstStep[row - rowOffset]!;
      const x1 = end[j]!;
      if (count + x1 - start[j]! + 1 > positions.length) {
        this.grow(count + x1 - start[j]! + 1);
        ({ positions, values } = this);
      }
      for (let x = start[j]!; x <= x1; x++) {
        const at = row * width + x;
        const p0 = hist[at]!;
        let c = 0;
        for (let d = d0; d < numDiffs; d++) {
          if ((bits & (1 << d)) === 0) continue;
          const step = (d + 1) * width;
          const p1 = hist[at + step]!;
          const p2 = hist[at - step]!;
          const pm = p1 > p2 ? p1 : p2;
          const val = Math.fround(Math.fround(diffWeights[d]! * p0 * pm) * RECIPROCAL[pm + p0]!);
          if (val > c) c = val;
        }
        if (c > 0) {
          positions[count] = i * width + x;
          values[count] = c;
          count++;
          sum += c;
        }
      }
    }
    this.count = count;
    this.sum += sum;
  }

  private grow(needed: number): void {
    const size = Math.max(needed, 2 * this.positions.length);
    const positions = new Int32Array(size);
    positions.set(this.positions);
    const values = new Float32Array(size);
    values.set(this.values);
    this.positions = positions;
    this.values = values;
  }
}

/** Per band code: bit d set when a step of d + 1 codes passes libvmaf's visibility tests there. */
export function visibleSteps(plan: CambiPlan): Uint32Array {
  const { numDiffs, bandBase, bandSize, tviForDiff, vltLuma } = plan;
  const steps = new Uint32Array(bandSize);
  for (let k = 0; k < bandSize; k++) {
    const value = bandBase + k + numDiffs; // libvmaf tests codes shifted up by numDiffs
    let bits = 0;
    for (let d = 0; d < numDiffs; d++) if (value <= tviForDiff[d]! && value + d + 1 > vltLuma) bits |= 1 << d;
    steps[k] = bits;
  }
  return steps;
}
