/**
 * libvmaf's ciede2000 score from the frame's sum of per-pixel ΔE00 (a double sum of
 * floats): 45 − 20·log10(mean ΔE00). Identical frames (sum 0) score +Infinity, which
 * libvmaf writes as null.
 */
export function ciedeScore(deltaESum: number, pixels: number): number {
  return 45 - 20 * Math.log10(deltaESum / pixels);
}
