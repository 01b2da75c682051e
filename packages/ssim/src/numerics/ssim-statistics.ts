import { C1, C2, C3, GAUSSIAN_TAPS, WINDOW } from "./ssim-constants.ts";
import { windowMeans, type SsimSums } from "./window-means.ts";

const f32 = Math.fround;

/** Means over the SSIM map of one scale, each rounded to float as libvmaf returns them. */
export interface SsimMeans {
  ssim: number;
  l: number;
  c: number;
  s: number;
}

// The window is symmetric: six distinct taps, named so the unrolled sums below read as the window.
const t0 = GAUSSIAN_TAPS[0]!;
const t1 = GAUSSIAN_TAPS[1]!;
const t2 = GAUSSIAN_TAPS[2]!;
const t3 = GAUSSIAN_TAPS[3]!;
const t4 = GAUSSIAN_TAPS[4]!;
const t5 = GAUSSIAN_TAPS[5]!;

/**
 * libvmaf's _iqa_ssim with its default arguments: Gaussian-weighted means, variances and
 * covariance of reference and distorted over every 11×11 window that fits the picture,
 * then per window luminance l, contrast c and structure s (zli-nflx's variant: c from the
 * product of the deviations, s with the flat-window fix), averaged in double.
 *
 * Float semantics are kept where libvmaf has them: every filter product is rounded to
 * float and the 11 products are summed in double, left to right; each pass rounds to
 * float; the per-window arithmetic mixes float and double exactly as the C expressions
 * do. The five filtered maps are kept only for the 11 rows the vertical pass needs (a
 * ring), and the 11-tap sums are written out (unrolled), which JavaScriptCore runs
 * about twice as fast as a tap loop.
 */
export class SsimStatistics {
  private readonly ring: Float32Array[];
  private readonly squares: Float32Array[];
  /** The last map's double sums, before the means round them to float (the WebAssembly kernels' tests compare them). */
  readonly sums: SsimSums = { ssim: 0, l: 0, c: 0, s: 0 };

  constructor(readonly maxWidth: number) {
    const outW = Math.max(0, maxWidth - WINDOW + 1);
    this.ring = Array.from({ length: 5 }, () => new Float32Array(WINDOW * outW));
    this.squares = Array.from({ length: 3 }, () => new Float32Array(maxWidth));
  }

  compute(ref: Float32Array, cmp: Float32Array, width: number, height: number, out: SsimMeans): SsimMeans {
    if (width > this.maxWidth) throw new Error(`SsimStatistics: width ${width} exceeds ${this.maxWidth}`);
    const outW = width - WINDOW + 1;
    const sums = this.sums;
    sums.ssim = sums.l = sums.c = sums.s = 0;
    for (let r = 0; r < height; r++) {
      this.horizontal(ref, cmp, r * width, width, outW, (r % WINDOW) * outW);
      if (r >= WINDOW - 1) this.windows(r - WINDOW + 1, outW, sums);
    }
    return windowMeans(sums, outW * (height - WINDOW + 1), out);
  }

  /** Horizontal pass of one picture row into ring slot `at`: the five maps' 11-tap sums. */
  private horizontal(ref: Float32Array, cmp: Float32Array, from: number, width: number, outW: number, at: number): void {
    const [sqRef, sqCmp, prod] = this.squares as [Float32Array, Float32Array, Float32Array];
    for (let x = 0; x < width; x++) {
      const a = ref[from + x]!;
      const b = cmp[from + x]!;
      sqRef[x] = a * a;
      sqCmp[x] = b * b;
      prod[x] = a * b;
    }
    const [m1, m2, s11, s22, s12] = this.ring as [Float32Array, Float32Array, Float32Array, Float32Array, Float32Array];
    const a = ref.subarray(from, from + width);
    const b = cmp.subarray(from, from + width);
    for (let i = 0; i < outW; i++) {
      m1[at + i] =
        f32(a[i]! * t0) +
        f32(a[i + 1]! * t1) +
        f32(a[i + 2]! * t2) +
        f32(a[i + 3]! * t3) +
        f32(a[i + 4]! * t4) +
        f32(a[i + 5]! * t5) +
        f32(a[i + 6]! * t4) +
        f32(a[i + 7]! * t3) +
        f32(a[i + 8]! * t2) +
        f32(a[i + 9]! * t1) +
        f32(a[i + 10]! * t0);
      m2[at + i] =
        f32(b[i]! * t0) +
        f32(b[i + 1]! * t1) +
        f32(b[i + 2]! * t2) +
        f32(b[i + 3]! * t3) +
        f32(b[i + 4]! * t4) +
        f32(b[i + 5]! * t5) +
        f32(b[i + 6]! * t4) +
        f32(b[i + 7]! * t3) +
        f32(b[i + 8]! * t2) +
        f32(b[i + 9]! * t1) +
        f32(b[i + 10]! * t0);
      s11[at + i] =
        f32(sqRef[i]! * t0) +
        f32(sqRef[i + 1]! * t1) +
        f32(sqRef[i + 2]! * t2) +
        f32(sqRef[i + 3]! * t3) +
        f32(sqRef[i + 4]! * t4) +
        f32(sqRef[i + 5]! * t5) +
        f32(sqRef[i + 6]! * t4) +
        f32(sqRef[i + 7]! * t3) +
        f32(sqRef[i + 8]! * t2) +
        f32(sqRef[i + 9]! * t1) +
        f32(sqRef[i + 10]! * t0);
      s22[at + i] =
        f32(sqCmp[i]! * t0) +
        f32(sqCmp[i + 1]! * t1) +
        f32(sqCmp[i + 2]! * t2) +
        f32(sqCmp[i + 3]! * t3) +
        f32(sqCmp[i + 4]! * t4) +
        f32(sqCmp[i + 5]! * t5) +
        f32(sqCmp[i + 6]! * t4) +
        f32(sqCmp[i + 7]! * t3) +
        f32(sqCmp[i + 8]! * t2) +
        f32(sqCmp[i + 9]! * t1) +
        f32(sqCmp[i + 10]! * t0);
      s12[at + i] =
        f32(prod[i]! * t0) +
        f32(prod[i + 1]! * t1) +
        f32(prod[i + 2]! * t2) +
        f32(prod[i + 3]! * t3) +
        f32(prod[i + 4]! * t4) +
        f32(prod[i + 5]! * t5) +
        f32(prod[i + 6]! * t4) +
        f32(prod[i + 7]! * t3) +
        f32(prod[i + 8]! * t2) +
        f32(prod[i + 9]! * t1) +
        f32(prod[i + 10]! * t0);
    }
  }

  /** Vertical pass for output row y (ring rows y … y+10) and the SSIM terms of its windows. */
  private windows(y: number, outW: number, sums: SsimSums): void {
    const [m1, m2, s11, s22, s12] = this.ring as [Float32Array, Float32Array, Float32Array, Float32Array, Float32Array];
    const slot = (v: number) => ((y + v) % WINDOW) * outW;
    const r0 = slot(0), r1 = slot(1), r2 = slot(2), r3 = slot(3), r4 = slot(4), r5 = slot(5);
    const r6 = slot(6), r7 = slot(7), r8 = slot(8), r9 = slot(9), r10 = slot(10);
    let ssimSum = sums.ssim;
    let lSum = sums.l;
    let cSum = sums.c;
    let sSum = sums.s;
    for (let x = 0; x < outW; x++) {
      const mu1 = f32(
        f32(m1[r0 + x]! * t0) +
        f32(m1[r1 + x]! * t1) +
        f32(m1[r2 + x]! * t2) +
        f32(m1[r3 + x]! * t3) +
        f32(m1[r4 + x]! * t4) +
        f32(m1[r5 + x]! * t5) +
        f32(m1[r6 + x]! * t4) +
        f32(m1[r7 + x]! * t3) +
        f32(m1[r8 + x]! * t2) +
        f32(m1[r9 + x]! * t1) +
        f32(m1[r10 + x]! * t0),
      );
      const mu2 = f32(
        f32(m2[r0 + x]! * t0) +
        f32(m2[r1 + x]! * t1) +
        f32(m2[r2 + x]! * t2) +
        f32(m2[r3 + x]! * t3) +
        f32(m2[r4 + x]! * t4) +
        f32(m2[r5 + x]! * t5) +
        f32(m2[r6 + x]! * t4) +
        f32(m2[r7 + x]! * t3) +
        f32(m2[r8 + x]! * t2) +
        f32(m2[r9 + x]! * t1) +
        f32(m2[r10 + x]! * t0),
      );
      const e11 = f32(
        f32(s11[r0 + x]! * t0) +
        f32(s11[r1 + x]! * t1) +
        f32(s11[r2 + x]! * t2) +
        f32(s11[r3 + x]! * t3) +
        f32(s11[r4 + x]! * t4) +
        f32(s11[r5 + x]! * t5) +
        f32(s11[r6 + x]! * t4) +
        f32(s11[r7 + x]! * t3) +
        f32(s11[r8 + x]! * t2) +
        f32(s11[r9 + x]! * t1) +
        f32(s11[r10 + x]! * t0),
      );
      const e22 = f32(
        f32(s22[r0 + x]! * t0) +
        f32(s22[r1 + x]! * t1) +
        f32(s22[r2 + x]! * t2) +
        f32(s22[r3 + x]! * t3) +
        f32(s22[r4 + x]! * t4) +
        f32(s22[r5 + x]! * t5) +
        f32(s22[r6 + x]! * t4) +
        f32(s22[r7 + x]! * t3) +
        f32(s22[r8 + x]! * t2) +
        f32(s22[r9 + x]! * t1) +
        f32(s22[r10 + x]! * t0),
      );
      const e12 = f32(
        f32(s12[r0 + x]! * t0) +
        f32(s12[r1 + x]! * t1) +
        f32(s12[r2 + x]! * t2) +
        f32(s12[r3 + x]! * t3) +
        f32(s12[r4 + x]! * t4) +
        f32(s12[r5 + x]! * t5) +
        f32(s12[r6 + x]! * t4) +
        f32(s12[r7 + x]! * t3) +
        f32(s12[r8 + x]! * t2) +
        f32(s12[r9 + x]! * t1) +
        f32(s12[r10 + x]! * t0),
      );
      const mu11 = f32(mu1 * mu1);
      const mu22 = f32(mu2 * mu2);
      let var1 = f32(e11 - mu11);
      let var2 = f32(e22 - mu22);
      if (0 > var1) var1 = 0;
      if (0 > var2) var2 = 0;
      const cov = f32(e12 - f32(mu1 * mu2));
      const sd12 = f32(Math.sqrt(f32(var1 * var2)));
      const l = (2 * mu1 * mu2 + C1) / f32(f32(mu11 + mu22) + C1);
      const c = (2 * sd12 + C2) / f32(f32(var1 + var2) + C2);
      // identical flat windows: a covariance just below 0 from rounding must not pull s below 1
      const covClamped = cov < 0 && sd12 <= 0 ? 0 : cov;
      const s = f32(f32(covClamped + C3) / f32(sd12 + C3));
      ssimSum += l * c * s;
      lSum += l;
      cSum += c;
      sSum += s;
    }
    sums.ssim = ssimSum;
    sums.l = lSum;
    sums.c = cSum;
    sums.s = sSum;
  }
}
