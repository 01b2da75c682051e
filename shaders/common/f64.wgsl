// Exact IEEE 754 binary64 arithmetic for positive finite values, on u32 words. WGSL has
// no f64, and some of libvmaf's integer kernels mix a few double operations into their
// fixed point (vif's gain g = sigma12 / (sigma1_sq + eps), ...). Each operation here is
// computed exactly and rounded once to nearest, ties to even, as the CPU's double
// operation is, so the integers derived from the results are the same.
// Needs common/u64.wgsl.

// m * 2^e with m a 53-bit integer in [2^52, 2^53) (m.x low 32 bits, m.y high 21 bits).
struct F64 {
  m: vec2u,
  e: i32,
}

// 128-bit helpers on vec4u, x the lowest word.

fn u128_shr(a: vec4u, r: u32) -> vec4u {
  var v = a;
  var n = r;
  if (n >= 64u) {
    v = vec4u(v.z, v.w, 0u, 0u);
    n -= 64u;
  }
  if (n >= 32u) {
    v = vec4u(v.y, v.z, v.w, 0u);
    n -= 32u;
  }
  if (n == 0u) {
    return v;
  }
  let c = 32u - n;
  return vec4u((v.x >> n) | (v.y << c), (v.y >> n) | (v.z << c), (v.z >> n) | (v.w << c), v.w >> n);
}

fn u128_shl(a: vec4u, r: u32) -> vec4u {
  var v = a;
  var n = r;
  if (n >= 64u) {
    v = vec4u(0u, 0u, v.x, v.y);
    n -= 64u;
  }
  if (n >= 32u) {
    v = vec4u(0u, v.x, v.y, v.z);
    n -= 32u;
  }
  if (n == 0u) {
    return v;
  }
  let c = 32u - n;
  return vec4u(v.x << n, (v.y << n) | (v.x >> c), (v.z << n) | (v.y >> c), (v.w << n) | (v.z >> c));
}

fn u128_add(a: vec4u, b: vec4u) -> vec4u {
  let x = a.x + b.x;
  let c0 = select(0u, 1u, x < a.x);
  let y0 = a.y + b.y;
  let y = y0 + c0;
  let c1 = select(0u, 1u, y0 < a.y) + select(0u, 1u, y < y0);
  let z0 = a.z + b.z;
  let z = z0 + c1;
  let c2 = select(0u, 1u, z0 < a.z) + select(0u, 1u, z < z0);
  return vec4u(x, y, z, a.w + b.w + c2);
}

// a - b for a >= b.
fn u128_sub(a: vec4u, b: vec4u) -> vec4u {
  let x = a.x - b.x;
  let b0 = select(0u, 1u, a.x < b.x);
  let y0 = a.y - b.y;
  let y = y0 - b0;
  let b1 = select(0u, 1u, a.y < b.y) + select(0u, 1u, y0 < b0);
  let z0 = a.z - b.z;
  let z = z0 - b1;
  let b2 = select(0u, 1u, a.z < b.z) + select(0u, 1u, z0 < b1);
  return vec4u(x, y, z, a.w - b.w - b2);
}

// Index of the highest set bit of a non-zero value.
fn u128_msb(a: vec4u) -> u32 {
  if (a.w != 0u) {
    return 96u + firstLeadingBit(a.w);
  }
  if (a.z != 0u) {
    return 64u + firstLeadingBit(a.z);
  }
  if (a.y != 0u) {
    return 32u + firstLeadingBit(a.y);
  }
  return firstLeadingBit(a.x);
}

// a * 2^e (a non-zero, exact) rounded to a double: to nearest, ties to even.
fn f64_round(a: vec4u, e: i32) -> F64 {
  let p = u128_msb(a);
  if (p <= 52u) {
    return F64(u128_shl(a, 52u - p).xy, e - i32(52u - p));
  }
  let r = p - 52u; // bits dropped
  let q = u128_shr(a, r - 1u); // the 53 kept bits and the rounding bit
  let sticky = any(u128_shl(q, r - 1u) != a);
  var m = vec2u((q.x >> 1u) | (q.y << 31u), q.y >> 1u);
  if ((q.x & 1u) == 1u && (sticky || (m.x & 1u) == 1u)) {
    m = u64_add_u32(m, 1u);
    if (m.y == (1u << 21u)) {
      return F64(vec2u(0u, 1u << 20u), e + i32(r) + 1);
    }
  }
  return F64(m, e + i32(r));
}

// (double) x for x > 0 (exact).
fn f64_from_u32(x: u32) -> F64 {
  let p = firstLeadingBit(x);
  let s = 52u - p; // 21 to 52
  if (s >= 32u) {
    return F64(vec2u(0u, x << (s - 32u)), i32(p) - 52);
  }
  return F64(vec2u(x << s, x >> (32u - s)), i32(p) - 52);
}

fn f64_less(a: F64, b: F64) -> bool {
  return a.e < b.e || (a.e == b.e && (a.m.y < b.m.y || (a.m.y == b.m.y && a.m.x < b.m.x)));
}

fn f64_min(a: F64, b: F64) -> F64 {
  if (f64_less(b, a)) {
    return b;
  }
  return a;
}

fn f64_mul(a: F64, b: F64) -> F64 {
  let p01 = u64_mul_u32(a.m.x, b.m.y);
  let p10 = u64_mul_u32(a.m.y, b.m.x);
  var s = vec4u(u64_mul_u32(a.m.x, b.m.x), u64_mul_u32(a.m.y, b.m.y));
  s = u128_add(s, vec4u(0u, p01, 0u));
  s = u128_add(s, vec4u(0u, p10, 0u));
  return f64_round(s, a.e + b.e);
}

// Helpers of the division on 64-bit words (named apart from common/i64.wgsl's u64_*, so
// that a kernel may include both).
fn mantissa_less(a: vec2u, b: vec2u) -> bool {
  return a.y < b.y || (a.y == b.y && a.x < b.x);
}

// a - b modulo 2^64.
fn mantissa_sub(a: vec2u, b: vec2u) -> vec2u {
  return vec2u(a.x - b.x, a.y - b.y - select(0u, 1u, a.x < b.x));
}

fn mantissa_to_f32(a: vec2u) -> f32 {
  return f32(a.y) * 4294967296.0 + f32(a.x);
}

// 2q + s with q = floor(a.m * 2^57 / b.m) and s = 1 when the remainder is not zero: the
// quotient's bits with a sticky bit below the rounding bit, which keeps any rounding exact. Long division
// in digits of 19 bits: each digit is estimated in f32 (relative error below 2^-20, so off
// by at most one) and then made exact by its remainder, computed modulo 2^64 (its true
// value lies within +-2^55).
fn f64_div_bits(a: F64, b: F64) -> vec2u {
  let d = b.m;
  let inverse = 1.0 / mantissa_to_f32(d);
  var r = a.m;
  var q = vec2u(0u, 0u);
  if (!mantissa_less(r, d)) {
    r = mantissa_sub(r, d);
    q.x = 1u;
  }
  for (var step = 0u; step < 3u; step++) {
    var digit = u32(mantissa_to_f32(r) * inverse * 524288.0);
    let p = u64_mul_u32(d.x, digit);
    var t = mantissa_sub(vec2u(r.x << 19u, (r.y << 19u) | (r.x >> 13u)), vec2u(p.x, p.y + d.y * digit));
    for (var fix = 0u; fix < 3u && bitcast<i32>(t.y) < 0; fix++) {
      digit -= 1u;
      t = u64_add(t, d);
    }
    for (var fix = 0u; fix < 3u && !mantissa_less(t, d); fix++) {
      digit += 1u;
      t = mantissa_sub(t, d);
    }
    q = vec2u((q.x << 19u) | digit, (q.y << 19u) | (q.x >> 13u));
    r = t;
  }
  let sticky = select(0u, 1u, r.x != 0u || r.y != 0u);
  return vec2u((q.x << 1u) | sticky, (q.y << 1u) | (q.x >> 31u));
}

fn f64_div(a: F64, b: F64) -> F64 {
  return f64_round(vec4u(f64_div_bits(a, b), 0u, 0u), a.e - b.e - 58);
}

// a - b for a > b > 0.
fn f64_sub(a: F64, b: F64) -> F64 {
  let d = u32(a.e - b.e);
  let high = vec4u(0u, 0u, a.m); // a.m * 2^64, exponent a.e - 64
  var low = vec4u(1u, 0u, 0u, 0u); // b below 2^-11 ulp of a: only its sticky bit counts
  if (d <= 64u) {
    low = u128_shr(vec4u(0u, 0u, b.m), d);
  }
  return f64_round(u128_sub(high, low), a.e - 64);
}

// (uint64_t) a, truncated toward zero, for a < 2^64.
fn f64_trunc(a: F64) -> vec2u {
  if (a.e >= 0) {
    return u128_shl(vec4u(a.m, 0u, 0u), u32(a.e)).xy;
  }
  if (a.e <= -53) {
    return vec2u(0u, 0u);
  }
  return u128_shr(vec4u(a.m, 0u, 0u), u32(-a.e)).xy;
}
