import type { Samples } from "@vq/core";

/** libvmaf's 5-tap Gaussian blur in Q16: the taps sum to 65536. */
export const MOTION_FILTER = [3571, 16004, 26386, 16004, 3571] as const;
const F0 = 3571;
const F1 = 16004;
const F2 = 26386;

const TWO_32 = 4294967296;
const X_ROUND = 32768;
const X_SCALE = 1 / 65536; // a power of two: multiplying is exact, like libvmaf's >> 16

/** libvmaf's reflect-101 edge: -1 -> 1, size -> size - 2. */
function mirror(index: number, size: number): number {
  if (index < 0) return -index;
  if (index >= size) return 2 * size - index - 2;
  return index;
}

/** One blurred row of the difference, padded by 2 mirrored samples each side so the horizontal pass needs no edge tests. */
export function createSadRow(width: number): Int32Array {
  return new Int32Array(width + 4);
}

/**
 * libvmaf's motion SAD: Σ |blur(prev − cur)| over the luma plane, as the uint64 sum of its
 * uint32 row sums. The blur is separable and runs on the difference (libvmaf's fused
 * pipeline, whose rounding differs from blurring each picture): the vertical pass rounds
 * to Q(16 − bitDepth) with `(acc + 2^(bitDepth−1)) >> bitDepth`, the horizontal pass
 * back to samples with `(acc + 2^15) >> 16`, both as arithmetic (flooring) shifts.
 *
 * @param row scratch from createSadRow(width), reused across frames
 * @returns the sum as an exact integer (rows below 2^32 each, so exact for any height below 2^21)
 */
export function motionSad(prev: Samples, prevStride: number, cur: Samples, curStride: number, width: number, height: number, bitDepth: number, row: Int32Array): number {
  const yRound = 1 << (bitDepth - 1);
  // Up to 15 bits the vertical accumulator stays inside int32 and `>>` is exact; at 16 it needs the float path.
  const wideVertical = bitDepth > 15;
  const yScale = 1 / 2 ** bitDepth;
  let sad = 0;
  for (let i = 0; i < height; i++) {
    const p0 = mirror(i - 2, height) * prevStride;
    const p1 = mirror(i - 1, height) * prevStride;
    const p2 = i * prevStride;
    const p3 = mirror(i + 1, height) * prevStride;
    const p4 = mirror(i + 2, height) * prevStride;
    const c0 = mirror(i - 2, height) * curStride;
    const c1 = mirror(i - 1, height) * curStride;
    const c2 = i * curStride;
    const c3 = mirror(i + 1, height) * curStride;
    const c4 = mirror(i + 2, height) * curStride;

    // Vertical pass on the difference; rows where it is zero everywhere add nothing and are skipped (as libvmaf does).
    let nonzero = 0;
    if (!wideVertical) {
      for (let j = 0; j < width; j++) {
        const acc =
          F0 * (prev[p0 + j]! - cur[c0 + j]! + (prev[p4 + j]! - cur[c4 + j]!)) +
          F1 * (prev[p1 + j]! - cur[c1 + j]! + (prev[p3 + j]! - cur[c3 + j]!)) +
          F2 * (prev[p2 + j]! - cur[c2 + j]!);
        const v = (acc + yRound) >> bitDepth;
        row[j + 2] = v;
        nonzero |= v;
      }
    } else {
      for (let j = 0; j < width; j++) {
        const acc =
          F0 * (prev[p0 + j]! - cur[c0 + j]! + (prev[p4 + j]! - cur[c4 + j]!)) +
          F1 * (prev[p1 + j]! - cur[c1 + j]! + (prev[p3 + j]! - cur[c3 + j]!)) +
          F2 * (prev[p2 + j]! - cur[c2 + j]!);
        const v = Math.floor((acc + yRound) * yScale);
        row[j + 2] = v;
        nonzero |= v;
      }
    }
    if (nonzero === 0) continue;

    row[0] = row[4]!;
    row[1] = row[3]!;
    row[width + 2] = row[width]!;
    row[width + 3] = row[width - 1]!;

    // Horizontal pass: the accumulator reaches 2^32, so it is kept in doubles (exact below 2^53).
    let rowSad = 0;
    for (let j = 0; j < width; j++) {
      const acc = F0 * (row[j]! + row[j + 4]!) + F1 * (row[j + 1]! + row[j + 3]!) + F2 * row[j + 2]!;
      const v = Math.floor((acc + X_ROUND) * X_SCALE);
      rowSad += v < 0 ? -v : v;
    }
    sad += rowSad % TWO_32; // libvmaf sums a row in a uint32_t
  }
  return sad;
}
