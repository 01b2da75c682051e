/**
 * libvmaf's log2f_approx (VIF_OPT_FAST_LOG2): the float's exponent plus a degree-8
 * polynomial in its mantissa, evaluated by Horner's rule in float arithmetic.
 */

const f32 = Math.fround;

/** log2_poly_s, as the floats libvmaf stores. */
export const LOG2_POLY = Float32Array.from([
  -0.012671635276421, 0.06484118240267, -0.157048836463065, 0.257167726303123, -0.35380056030052, 0.480131410397451, -0.721314327952201, 1.442694803896991, 0,
]);

const bits = new Float32Array(1);
const word = new Uint32Array(bits.buffer);

export function log2fApprox(x: number): number {
  if (x === 0) return -Infinity;
  if (x < 0) return Number.NaN;
  bits[0] = x;
  const u = word[0]!;
  const exponent = (u >>> 23) & 0xff;
  word[0] = (u & 0x7fffff) | 0x3f800000;
  const t = f32(bits[0]! - 1);
  let p = 0;
  for (let i = 0; i < LOG2_POLY.length; i++) p = f32(f32(p * t) + LOG2_POLY[i]!);
  return f32(exponent - 127 + p);
}
