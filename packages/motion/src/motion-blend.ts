/** libvmaf's motion_blend: above `offset`, scores grow by `factor` only (factor 1 leaves them as they are). */
export function motionBlend(score: number, factor: number, offset: number): number {
  return score * factor + (1 - factor) * (offset < score ? offset : score);
}

/** libvmaf's MIN(score, motion_max_val); written as C's MIN so NaN and ties behave the same. */
export function clipMotion(score: number, maxVal: number): number {
  return score < maxVal ? score : maxVal;
}
