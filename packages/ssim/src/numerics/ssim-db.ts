/**
 * The `enable_db` / `clip_db` options both SSIM extractors share: a score as
 * −10·log10(1 − score), capped at ceil(10·log10(peak² / (0.5 / (w·h)))) when clipping.
 */
export function maxDb(clip: boolean, bitDepth: number, width: number, height: number): number {
  if (!clip) return Infinity;
  const peak = 2 ** bitDepth - 1;
  const mse = 0.5 / ((width * height) >>> 0); // unsigned w·h, as libvmaf multiplies it
  return Math.ceil(10 * Math.log10((peak * peak) / mse));
}

export function toDb(score: number, max: number): number {
  const db = -10 * Math.log10(1 - score);
  return db < max ? db : max; // C's MIN: a NaN falls to the cap
}
