// log2 to about 2^-45, for SpEED's entropies: libvmaf adds 25 double log2 terms to a float
// per block, and a float-accurate log2 changes that float's last bit often enough to move
// scores by 4e-5. x = m 2^k with m in [sqrt(1/2), sqrt(2)); ln m = 2 atanh((m-1)/(m+1)),
// summed in float pairs. Needs speed/exact-f32.wgsl.

const INV_LN2 = vec2f(bitcast<f32>(0x3fb8aa3bu), bitcast<f32>(0x32a57060u));
const ONE_THIRD = vec2f(bitcast<f32>(0x3eaaaaabu), bitcast<f32>(0xb22aaaabu));
// log2(2 pi e), the constant term of libvmaf's entropies, as a float pair
const LOG2_2PIE = vec2f(bitcast<f32>(0x4083039du), bitcast<f32>(0x33ce2308u));

// x > 0, a float pair
fn log2_dd(x: vec2f) -> vec2f {
  let u = bitcast<u32>(x.x);
  var k = i32((u >> 23u) & 0xffu) - 127;
  var mh = bitcast<f32>((u & 0x7fffffu) | 0x3f800000u);
  var ml = ldexp(x.y, -k);
  if (mh > 1.41421356) {
    mh = mh * 0.5;
    ml = ml * 0.5;
    k = k + 1;
  }
  let num = two_sum(mh - 1.0, ml);
  let den = dd_add(two_sum(mh, 1.0), vec2f(ml, 0.0));
  let t = dd_div(num, den);
  let w = dd_mul(t, t);
  // 1/5 + w/7 + ... + w^6/17: its float error is scaled down by 2 t w (< 0.011)
  let wf = w.x;
  var r = 1.0 / 17.0;
  r = 1.0 / 15.0 + wf * r;
  r = 1.0 / 13.0 + wf * r;
  r = 1.0 / 11.0 + wf * r;
  r = 1.0 / 9.0 + wf * r;
  r = 1.0 / 7.0 + wf * r;
  r = 1.0 / 5.0 + wf * r;
  let series = dd_add(ONE_THIRD, dd_mul(w, vec2f(r, 0.0)));
  let two_t = t * 2.0;
  let ln_m = dd_add(two_t, dd_mul(dd_mul(two_t, w), series));
  return dd_add(vec2f(f32(k), 0.0), dd_mul(ln_m, INV_LN2));
}
