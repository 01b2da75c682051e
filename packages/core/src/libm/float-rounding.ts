const f32 = Math.fround;

/**
 * Math.fround(v) when every number within `bound` of v rounds to the same float, else
 * NaN. A value computed differently from libvmaf's but within `bound` of it then rounds
 * to the same float as libvmaf's; on NaN the caller redoes libvmaf's exact steps, which
 * happens about bound / ulp(float) of the time.
 */
export function floatIfUnambiguous(v: number, bound: number): number {
  const lo = f32(v - bound);
  return lo === f32(v + bound) ? lo : NaN;
}
