import type { Samples } from "@vq/core";

/** libvmaf's 5-tap Gaussian blur in Q16: the taps sum to 65536. */
export const MOTION_FILTER = [3571, 16004, 26386, 16004, 3571] as const;
const F0 = 3571;
const F1 = 16004;
const F2 = 26386;

const TWO_32 = 4294967296;
/** Samples below this keep column sums below 2^31, so the int32 kernel is exact. */
export const NARROW_SAMPLE_LIMIT = 1 << 15;
/** Column sums of deeper samples reach 2^32; they are stored plus this (-2^31) to fit an Int32Array. Differences are unchanged. */
export const DEEP_COLUMN_BASE = -2147483648;

/** libvmaf's reflect-101 edge: -1 -> 1, size -> size - 2. */
function mirror(index: number, size: number): number {
  if (index < 0) return -index;
  if (index >= size) return 2 * size - index - 2;
  return index;
}

/**
 * The vertical pass of libvmaf's motion blur on one picture, before rounding:
 * out[y * width + x] = Σ_k filter[k] · luma[mirror(y − 2 + k)][x] (+ DEEP_COLUMN_BASE above 8 bits).
 * libvmaf blurs the difference of two pictures; the pass is linear and exact in integers,
 * so blurColumns(prev) − blurColumns(cur) is libvmaf's vertical sum, and each picture's
 * columns are computed once and kept for the next frame.
 *
 * @returns whether every sample is below 2^15 ("narrow"), as 8-bit samples always are
 */
export function blurColumns(luma: Samples, stride: number, width: number, height: number, bitDepth: number, out: Int32Array): boolean {
  const base = bitDepth > 8 ? DEEP_COLUMN_BASE : 0;
  const row = (y: number) => luma.subarray(mirror(y, height) * stride);
  let samples = 0;
  // Two output rows per pass share four input rows: fewer loads than one row at a time.
  for (let i = 0; i < height; i += 2) {
    const r0 = row(i - 2);
    const r1 = row(i - 1);
    const r2 = row(i);
    const r3 = row(i + 1);
    const r4 = row(i + 2);
    const o0 = out.subarray(i * width, i * width + width);
    if (i + 1 < height) {
      const r5 = row(i + 3);
      const o1 = out.subarray(i * width + width, i * width + 2 * width);
      for (let j = 0; j < width; j++) {
        const a1 = r1[j]!;
        const a2 = r2[j]!;
        const a3 = r3[j]!;
        const a4 = r4[j]!;
        samples |= a2 | a3;
        o0[j] = F0 * (r0[j]! + a4) + F1 * (a1 + a3) + F2 * a2 + base;
        o1[j] = F0 * (a1 + r5[j]!) + F1 * (a2 + a4) + F2 * a3 + base;
      }
    } else {
      for (let j = 0; j < width; j++) {
        const a2 = r2[j]!;
        samples |= a2;
        o0[j] = F0 * (r0[j]! + r4[j]!) + F1 * (r1[j]! + r3[j]!) + F2 * a2 + base;
      }
    }
  }
  return samples < NARROW_SAMPLE_LIMIT;
}

/**
 * libvmaf's motion SAD between two pictures given by their blurColumns: Σ |blur(prev − cur)|
 * as the uint64 sum of uint32 row sums. The vertical sum is rounded with
 * `(acc + 2^(bitDepth−1)) >> bitDepth`, the horizontal one with `(acc + 2^15) >> 16`, both
 * flooring like C's arithmetic shifts; edges mirror (reflect-101) in both directions.
 *
 * @param narrow both pictures' samples are below 2^15 (blurColumns' result for each)
 * @returns the sum, exact (rows stay below 2^32, so any height below 2^21 is exact)
 */
export function motionSad(prevColumns: Int32Array, curColumns: Int32Array, width: number, height: number, bitDepth: number, narrow: boolean): number {
  let sad = 0;
  for (let i = 0; i < height; i++) {
    const p = prevColumns.subarray(i * width, i * width + width);
    const c = curColumns.subarray(i * width, i * width + width);
    const rowSad = narrow ? rowSadNarrow(p, c, width, bitDepth) : rowSadWide(p, c, width, bitDepth);
    sad += rowSad % TWO_32; // libvmaf sums a row in a uint32_t
  }
  return sad;
}

/**
 * One row in int32 arithmetic, the vertical rounding fused into a sliding 5-tap window.
 * Column differences stay below 2^31 for narrow samples, but the horizontal sum reaches
 * 2^33: each tap sum s is split into (s >> 8, s & 255), which keeps both partial sums in
 * int32 (|y| < 2^22), and floor((256·hi + lo + 2^15) / 2^16) = (hi + ((lo + 2^15) >> 8)) >> 8.
 */
function rowSadNarrow(p: Int32Array, c: Int32Array, width: number, shift: number): number {
  const round = 1 << (shift - 1);
  // columns -2 and -1 mirror to 2 and 1
  let y0 = (p[2]! - c[2]! + round) >> shift;
  let y1 = (p[1]! - c[1]! + round) >> shift;
  let y2 = (p[0]! - c[0]! + round) >> shift;
  let y3 = y1;
  let sum = 0;
  for (let j = 0; j < width; j++) {
    const k = j + 2 < width ? j + 2 : 2 * width - j - 4; // columns width, width + 1 mirror to width - 2, width - 3
    const y4 = (p[k]! - c[k]! + round) >> shift;
    const s0 = y0 + y4;
    const s1 = y1 + y3;
    const hi = F0 * (s0 >> 8) + F1 * (s1 >> 8) + F2 * (y2 >> 8);
    const lo = F0 * (s0 & 255) + F1 * (s1 & 255) + F2 * (y2 & 255);
    const v = (hi + ((lo + 32768) >> 8)) >> 8;
    const sign = v >> 31;
    sum += (v ^ sign) - sign; // |v| without a branch: signs alternate unpredictably
    y0 = y1;
    y1 = y2;
    y2 = y3;
    y3 = y4;
  }
  return sum;
}

/** The same in doubles (exact below 2^53, floors taken explicitly), for samples of 2^15 and above. */
function rowSadWide(p: Int32Array, c: Int32Array, width: number, shift: number): number {
  const round = 2 ** (shift - 1);
  const scale = 1 / 2 ** shift; // a power of two: multiplying is exact
  const yAt = (k: number) => Math.floor((p[k]! - c[k]! + round) * scale);
  let y0 = yAt(2);
  let y1 = yAt(1);
  let y2 = yAt(0);
  let y3 = y1;
  let sum = 0;
  for (let j = 0; j < width; j++) {
    const y4 = yAt(j + 2 < width ? j + 2 : 2 * width - j - 4);
    const v = Math.floor((F0 * (y0 + y4) + F1 * (y1 + y3) + F2 * y2 + 32768) / 65536);
    sum += v < 0 ? -v : v;
    y0 = y1;
    y1 = y2;
    y2 = y3;
    y3 = y4;
  }
  return sum;
}
