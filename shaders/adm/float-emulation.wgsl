// libvmaf's float and double steps in adm's decoupling, reproduced exactly in integer
// arithmetic (WGSL has no f64, and its float operations need not round like the CPU's).
// Needs adm/params.wgsl (the gain and cos(1 degree)^2 constants), common/u64.wgsl,
// common/i64.wgsl.

// A positive binary float: value = m * 2^e (m < 2^24 once rounded, or 2^24 after carry).
struct Scaled {
  m: u32,
  e: i32,
}

// C's (float) of a non-negative int64 magnitude: round to 24 bits, ties to even.
fn to_float24(v: vec2u) -> Scaled {
  let bits = u64_bit_length(v);
  if (bits <= 24u) {
    return Scaled(v.x, 0);
  }
  let d = bits - 24u; // 1..40
  let kept = u64_shr(v, d);
  var m = kept.x;
  let low = u64_sub(v, u64_shl(kept, d));
  let half = u64_shl(vec2u(1u, 0u), d - 1u);
  if (u64_gt(low, half) || (all(low == half) && (m & 1u) == 1u)) {
    m = m + 1u;
  }
  return Scaled(m, i32(d));
}

// a * 2^ea >= b * 2^eb for a, b > 0 below 2^55.
fn scaled_ge(a: vec2u, ea: i32, b: vec2u, eb: i32) -> bool {
  let la = i32(u64_bit_length(a)) + ea;
  let lb = i32(u64_bit_length(b)) + eb;
  if (la != lb) {
    return la > lb;
  }
  if (ea >= eb) {
    return u64_ge(u64_shl(a, u32(ea - eb)), b);
  }
  return u64_ge(a, u64_shl(b, u32(eb - ea)));
}

// A positive binary double: value = m * 2^e (m <= 2^53).
struct Scaled64 {
  m: vec2u,
  e: i32,
}

// C's (double) of an integer below 2^85 given as three words: 53 bits, ties to even.
fn round_to_double(q: vec3u) -> Scaled64 {
  var bits = 32u - countLeadingZeros(q.x);
  if (q.z != 0u) {
    bits = 96u - countLeadingZeros(q.z);
  } else if (q.y != 0u) {
    bits = 64u - countLeadingZeros(q.y);
  }
  if (bits <= 53u) {
    return Scaled64(q.xy, 0);
  }
  let shift = bits - 53u; // below 32
  var r = vec2u((q.x >> shift) | (q.y << (32u - shift)), (q.y >> shift) | (q.z << (32u - shift)));
  let rest = q.x & ((1u << shift) - 1u);
  let half = 1u << (shift - 1u);
  if (rest > half || (rest == half && (r.x & 1u) == 1u)) {
    r = u64_add(r, vec2u(1u, 0u));
  }
  return Scaled64(r, i32(shift));
}

// libvmaf's 1-degree test on int64 dot product and squared magnitudes:
//   (float)dp >= 0 && ((float)dp/4096)^2 >= cos1^2 * ((float)o/4096) * ((float)t/4096)
// in double: the left side is exact (a float squared), cos1^2 * o is exact, the product
// with t rounds once to 53 bits. The /4096 scalings cancel.
fn angle_flag(dp: vec2u, o_mag: vec2u, t_mag: vec2u) -> bool {
  if (i64_is_neg(dp)) {
    return false;
  }
  let o_neg = i64_is_neg(o_mag); // only int64 wrap-around (two INT_MIN) makes them negative
  let t_neg = i64_is_neg(t_mag);
  let o = to_float24(select(o_mag, i64_neg(o_mag), o_neg));
  let t = to_float24(select(t_mag, i64_neg(t_mag), t_neg));
  if (o.m == 0u || t.m == 0u || o_neg != t_neg) {
    return true; // the right side is 0 or negative
  }
  let d = to_float24(dp);
  if (d.m == 0u) {
    return false;
  }
  // q = cos_m * o.m * t.m, up to 72 bits in three words
  let co = u64_mul_u32(params.cos_m, o.m);
  let p0 = u64_mul_u32(co.x, t.m);
  let p1 = u64_mul_u32(co.y, t.m);
  let q0 = p0.x;
  let q1 = p0.y + p1.x;
  let q2 = p1.y + select(0u, 1u, q1 < p0.y);
  let r = round_to_double(vec3u(q0, q1, q2));
  return scaled_ge(u64_mul_u32(d.m, d.m), 2 * d.e, r.m, bitcast<i32>(params.cos_e) + o.e + t.e + r.e);
}

// floor of the double n * adm_enhn_gain_limit (libvmaf multiplies an int by the double
// gain), saturated at 2^31 (it is only compared with an int32). The gain is m * 2^-s
// with a 53-bit m: the exact product n * m, rounded to 53 bits, then shifted.
fn gain_floor(n: u32) -> u32 {
  if (n == 0u) {
    return 0u;
  }
  let p = u64_mul_u32(n, params.gain_lo);
  let q = u64_mul_u32(n, params.gain_hi);
  let l0 = p.x;
  let l1 = p.y + q.x;
  let l2 = q.y + select(0u, 1u, l1 < p.y);
  let s = params.gain_shift - 32u; // gain_shift is 46..52
  var int_part = vec2u((l1 >> s) | (l2 << (32u - s)), l2 >> s);
  // rounding the product to 53 bits carries into the integer part iff the fraction
  // f = P mod 2^gain_shift satisfies f + 2^(dropped - 1) >= 2^gain_shift
  var bits = 64u - countLeadingZeros(l1);
  if (l2 != 0u) {
    bits = 96u - countLeadingZeros(l2);
  }
  if (bits > 53u) {
    let dropped = bits - 53u; // 1..32
    let sum = u64_add(vec2u(l0, l1 & ((1u << s) - 1u)), vec2u(1u << (dropped - 1u), 0u));
    if ((sum.y >> s) != 0u) {
      int_part = u64_add(int_part, vec2u(1u, 0u));
    }
  }
  if (int_part.y != 0u || int_part.x > 0x80000000u) {
    return 0x80000000u;
  }
  return int_part.x;
}
