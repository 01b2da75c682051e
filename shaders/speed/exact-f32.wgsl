// libvmaf's float arithmetic, exactly, on any WebGPU device. WGSL's f32 +, - and * are
// correctly rounded, but a compiler may fuse a * b + c into one rounding (Vulkan drivers
// do), and SpEED's scores move by 1e-4 when its products are fused; `mul` hides each
// product behind an XOR with a zero read at run time, which no compiler can see through.
// WGSL's division and square root may be off by ulps, so both are done in integers.
// Values stay far from the subnormal and overflow ranges. Needs `params.zero`.

fn unfused(x: f32) -> f32 {
  return bitcast<f32>(bitcast<u32>(x) ^ params.zero);
}

fn mul(a: f32, b: f32) -> f32 {
  return unfused(a * b);
}

// Rounds sign * q * 2^(e - 151) to nearest even: q holds 25 bits (the 24 kept and one
// for rounding), e is the biased exponent of the result, `sticky` whether anything below
// q's bits was non-zero.
fn round_bits(sign: u32, q_in: u32, e_in: i32, sticky: bool) -> f32 {
  var q = q_in;
  var e = e_in;
  let half = q & 1u;
  q = q >> 1u;
  if (half == 1u && (sticky || (q & 1u) == 1u)) {
    q = q + 1u;
  }
  if (q == 0x1000000u) {
    q = q >> 1u;
    e = e + 1;
  }
  return bitcast<f32>(sign | (u32(e) << 23u) | (q & 0x7fffffu));
}

// a / b correctly rounded. The 25-bit quotient of the significands is estimated in float
// (a few units off) and fixed by the remainder, which is then small enough for wrapping
// 32-bit arithmetic to hold exactly: a short chain instead of 25 rounds of long division,
// which matters on the model fit's serial paths. b must not be 0 (nor a result subnormal).
fn div_rn(a: f32, b: f32) -> f32 {
  if (a == 0.0) {
    return a;
  }
  let ua = bitcast<u32>(a);
  let ub = bitcast<u32>(b);
  var e = i32((ua >> 23u) & 0xffu) - i32((ub >> 23u) & 0xffu) + 127;
  let mb = (ub & 0x7fffffu) | 0x800000u;
  var ma = (ua & 0x7fffffu) | 0x800000u;
  if (ma < mb) {
    ma = ma << 1u;
    e = e - 1;
  }
  // q ~ floor(ma 2^24 / mb) in [2^24, 2^25), within 9; r = ma 2^24 - q mb, |r| < 2^28.
  // One reciprocal, off by a few ulps, serves both estimates.
  let inv = 1.0 / f32(mb);
  var q = u32(min(f32(ma) * inv, 1.9999999) * 16777216.0);
  var r = bitcast<i32>((ma << 24u) - q * mb);
  let m = i32(mb);
  let k = i32(floor(f32(r) * inv));
  q = u32(i32(q) + k);
  r = r - k * m;
  if (r < 0) {
    q = q - 1u;
    r = r + m;
  }
  if (r >= m) {
    q = q + 1u;
    r = r - m;
  }
  return round_bits((ua ^ ub) & 0x80000000u, q, e, r != 0);
}

// sqrt(x) correctly rounded (what C's double sqrt of a float gives once stored as float):
// q = floor(sqrt(m 2^26)) for the significand m, from the float root refined by its exact
// float residual, then fixed by the integer remainder (small, so exact in 32 bits).
fn sqrt_rn(x: f32) -> f32 {
  if (x <= 0.0) {
    return x;
  }
  let u = bitcast<u32>(x);
  var e = i32((u >> 23u) & 0xffu) - 127 - 23;
  var m = (u & 0x7fffffu) | 0x800000u;
  if ((e & 1) != 0) {
    m = m << 1u;
    e = e - 1;
  }
  let big = f32(m) * 67108864.0;
  let inv_root = inverseSqrt(big);
  let root = floor(big * inv_root);
  let p = two_prod(root, root);
  let residual = unfused(big - p.x) - p.y;
  var q = u32(i32(root) + i32(floor(residual * (0.5 * inv_root))));
  var rem = bitcast<i32>((m << 26u) - q * q);
  for (var i = 0; i < 2 && rem < 0; i++) {
    q = q - 1u;
    rem = rem + i32(2u * q + 1u);
  }
  for (var i = 0; i < 2 && rem > i32(2u * q); i++) {
    rem = rem - i32(2u * q + 1u);
    q = q + 1u;
  }
  // sqrt(x) = q * 2^((e - 26) / 2); keep 25 bits of q
  var sticky = rem != 0;
  var shift = 0;
  if (q >= 0x2000000u) {
    sticky = sticky || (q & 1u) == 1u;
    q = q >> 1u;
    shift = 1;
  }
  return round_bits(0u, q, (e - 26) / 2 + shift + 151, sticky);
}

// Error-free transforms: a value as an unevaluated pair (hi, lo) of floats, ~48 bits.
// Compilers may also simplify (a + b) - a to b when nothing marks the operations exact
// (Mesa does), so every intermediate goes through `unfused` too.

fn two_sum(a: f32, b: f32) -> vec2f {
  let s = unfused(a + b);
  let bb = unfused(s - a);
  return vec2f(s, unfused(a - unfused(s - bb)) + unfused(b - bb));
}

fn quick_two_sum(a: f32, b: f32) -> vec2f {
  let s = unfused(a + b);
  return vec2f(s, b - unfused(s - a));
}

// Dekker's split: hi holds the top 12 bits, so products of halves are exact.
fn split(a: f32) -> vec2f {
  let c = mul(4097.0, a);
  let hi = unfused(c - unfused(c - a));
  return vec2f(hi, a - hi);
}

// a * b exactly, as p + e. The partial products are exact, so fusing them is harmless;
// p itself must be the rounded product.
fn two_prod(a: f32, b: f32) -> vec2f {
  let p = mul(a, b);
  let x = split(a);
  let y = split(b);
  let e = unfused(unfused(unfused(x.x * y.x - p) + x.x * y.y) + x.y * y.x) + x.y * y.y;
  return vec2f(p, e);
}

fn dd_add(a: vec2f, b: vec2f) -> vec2f {
  let s = two_sum(a.x, b.x);
  return quick_two_sum(s.x, s.y + a.y + b.y);
}

fn dd_mul(a: vec2f, b: vec2f) -> vec2f {
  let p = two_prod(a.x, b.x);
  return quick_two_sum(p.x, p.y + (a.x * b.y + a.y * b.x));
}

fn dd_div(a: vec2f, b: vec2f) -> vec2f {
  let q1 = a.x / b.x;
  let r1 = dd_add(a, -dd_mul(b, vec2f(q1, 0.0)));
  let q2 = r1.x / b.x;
  let r2 = dd_add(r1, -dd_mul(b, vec2f(q2, 0.0)));
  let q3 = r2.x / b.x;
  return dd_add(quick_two_sum(q1, q2), vec2f(q3, 0.0));
}

// 1 / sqrt(x) rounded once, as C's `1.0 / sqrt(float)` stored as float (x > 0): one
// Newton step on the native reciprocal root q1, y = q1 (1 + rho/2 + 3 rho^2/8) with
// rho = 1 - x q1^2 kept as a float pair, so y is good to about 2^-60 before its one
// rounding. A short chain, as the eigenvalue rotations need it once each.
fn rsqrt_rn(x: f32) -> f32 {
  let q1 = inverseSqrt(x);
  let q1q1 = two_prod(q1, q1);
  let xq = two_prod(x, q1q1.x);
  // 1 - xq.x is exact (xq.x is within a few ulps of 1)
  let rho = two_sum(unfused(1.0 - xq.x), -xq.y);
  let rho_lo = unfused(rho.y - mul(x, q1q1.y));
  let half = two_prod(q1, 0.5 * rho.x);
  let rest = mul(q1, unfused(0.5 * rho_lo + mul(0.375, mul(rho.x, rho.x))));
  let sum = two_sum(q1, half.x);
  return unfused(sum.x + unfused(sum.y + unfused(half.y + rest)));
}

// a < 1e-6 * b in double, for floats a, b >= 0 (libvmaf's EIGENVALUE_EPS tests): float
// products decide unless a is within 1e-5 of the bound, then a float pair does.
const EPS_DD = vec2f(bitcast<f32>(0x358637bdu), bitcast<f32>(0x2735ed8du));
fn below_eps_times(a: f32, b: f32) -> bool {
  if (a < b * 0.99999e-6) {
    return true;
  }
  if (a > b * 1.00001e-6) {
    return false;
  }
  let p = dd_mul(EPS_DD, vec2f(b, 0.0));
  return a < p.x || (a == p.x && p.y > 0.0);
}
// x < 1e-6 in double: f32(1e-6) is the largest float below 1e-6.
fn below_eps(x: f32) -> bool {
  return x <= EPS_DD.x;
}
