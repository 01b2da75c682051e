/**
 * The pieces of libvmaf's vif_scale_frame_s (vif_tools.c) that float_vif's and SpEED's
 * prescaling share: where an output sample reads, the border reflection and the bicubic
 * and Lanczos-4 weights, in libvmaf's float/double steps so every value is the same float.
 */

const f32 = Math.fround;

/** libvmaf's mirror(): reflection about the first and last sample. */
export function resampleMirror(i: number, right: number): number {
  return i < 0 ? -i : i > right ? 2 * right - i : i;
}

/** (i + 0.5) * ratio - 0.5 in double, stored as float: the source position of output sample i. */
export function resampleSourcePosition(i: number, ratio: number): number {
  return f32((i + 0.5) * ratio - 0.5);
}

/** The bicubic weight at distance t (a = -0.75), rounded to float after every step. */
export function bicubicKernel(t: number): number {
  const a = -0.75;
  if (t < 0) t = -t;
  if (t < 1) return f32(f32(f32(f32(f32(f32(a + 2) * t) - f32(a + 3)) * t) * t) + 1);
  if (t < 2) return f32(f32(f32(f32(f32(f32(t - 5) * t) + 8) * t) - 4) * a);
  return 0;
}

/** The Lanczos weight at distance x for window a, in double, stored as float. */
export function lanczos4Kernel(x: number, a: number): number {
  if (x === 0) return 1;
  if (x > -a && x < a) return f32((a * Math.sin(Math.PI * x) * Math.sin((Math.PI * x) / a)) / (Math.PI * Math.PI * x * x));
  return 0;
}
