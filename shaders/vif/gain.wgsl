// vif's double steps in the shapes they take, exact: g = sigma12 / (sigma1_sq + eps),
// sv_sq = (int32)(sigma2_sq - g * sigma12) at least 0, and (int64)(gain * gain * sigma1_sq).
// Every operand but g is an integer below 2^31, so each product's exponent range is known
// and its rounding takes fixed shifts instead of common/f64.wgsl's general 128-bit ones
// (which remain for the division's quotient digits). Each step rounds once to nearest, ties
// to even, like the CPU's double operation.
// Needs common/u64.wgsl, common/f64.wgsl.

// m rounded up by one unit where the dropped part says so (round bit, sticky bits), to
// nearest, ties to even; a carry out of 53 bits renormalises.
fn gain_round(m: vec2u, round: bool, sticky: bool, e: i32) -> F64 {
  if (round && (sticky || (m.x & 1u) == 1u)) {
    let r = u64_add_u32(m, 1u);
    if (r.y == (1u << 21u)) {
      return F64(vec2u(0u, 1u << 20u), e + 1);
    }
    return F64(r, e);
  }
  return F64(m, e);
}

// fl(a * n) for an integer 0 < n < 2^32. With n shifted up to its top bit at 31, the
// exact product lies in [2^83, 2^85): three words, 31 or 32 of them dropped.
fn gain_mul_u32(a: F64, n: u32) -> F64 {
  let p = firstLeadingBit(n);
  let v = n << (31u - p);
  let lo = u64_mul_u32(a.m.x, v);
  let hi = u64_mul_u32(a.m.y, v);
  let w1 = lo.y + hi.x;
  let w2 = hi.y + select(0u, 1u, w1 < lo.y);
  let w0 = lo.x;
  let e = a.e + i32(p) - 31;
  if (w2 >= (1u << 20u)) {
    return gain_round(vec2u(w1, w2), (w0 >> 31u) == 1u, (w0 & 0x7fffffffu) != 0u, e + 32);
  }
  return gain_round(vec2u((w1 << 1u) | (w0 >> 31u), (w2 << 1u) | (w1 >> 31u)), ((w0 >> 30u) & 1u) == 1u, (w0 & 0x3fffffffu) != 0u, e + 31);
}

// fl(a * a): the exact square of the mantissa lies in [2^104, 2^106), 52 or 53 bits dropped.
fn gain_square(a: F64) -> F64 {
  let low = u64_mul_u32(a.m.x, a.m.x);
  let cross = u64_mul_u32(a.m.x, a.m.y); // < 2^53: doubled, still two words
  let high = u64_mul_u32(a.m.y, a.m.y);
  let mid = u64_add(vec2u(cross.x << 1u, (cross.y << 1u) | (cross.x >> 31u)), vec2u(low.y, 0u));
  let top = u64_add(high, vec2u(mid.y, 0u));
  let w0 = low.x;
  let w1 = mid.x;
  let w2 = top.x;
  let w3 = top.y;
  let e = 2 * a.e;
  if (w3 >= (1u << 9u)) {
    return gain_round(vec2u((w1 >> 21u) | (w2 << 11u), (w2 >> 21u) | (w3 << 11u)), ((w1 >> 20u) & 1u) == 1u, w0 != 0u || (w1 & 0xfffffu) != 0u, e + 53);
  }
  return gain_round(vec2u((w1 >> 20u) | (w2 << 12u), (w2 >> 20u) | (w3 << 12u)), ((w1 >> 19u) & 1u) == 1u, w0 != 0u || (w1 & 0x7ffffu) != 0u, e + 52);
}

// fl(a / b) by long division in digits of 19 bits, as common/f64.wgsl's f64_div (each
// digit estimated in f32, then made exact by its remainder, computed modulo 2^64), but its
// 59 bits (q = floor(a.m * 2^57 / b.m) in (2^56, 2^58), a sticky bit below) rounded with
// short shifts.
fn gain_div(a: F64, b: F64) -> F64 {
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
  let v = vec2u((q.x << 1u) | select(0u, 1u, r.x != 0u || r.y != 0u), (q.y << 1u) | (q.x >> 31u));
  let n = firstLeadingBit(v.y) - 20u; // 5 or 6 bits dropped
  let m = vec2u((v.x >> n) | (v.y << (32u - n)), v.y >> n);
  let below = v.x & ((1u << n) - 1u);
  let half = 1u << (n - 1u);
  return gain_round(m, (below & half) != 0u, (below & (half - 1u)) != 0u, a.e - b.e - 58 + i32(n));
}

// (uint64_t) a for a < 2^64.
fn gain_trunc(a: F64) -> vec2u {
  if (a.e >= 0) {
    let n = u32(a.e); // at most 11
    if (n == 0u) {
      return a.m;
    }
    return vec2u(a.m.x << n, (a.m.y << n) | (a.m.x >> (32u - n)));
  }
  let n = u32(-a.e);
  if (n >= 53u) {
    return vec2u(0u, 0u);
  }
  if (n >= 32u) {
    return vec2u(a.m.y >> (n - 32u), 0u);
  }
  return vec2u((a.m.x >> n) | (a.m.y << (32u - n)), a.m.y >> n);
}

// (int32)(s - p) where 0 < p < s < 2^31 (s an integer): floor(p) and its fraction's bits
// decide without a general subtraction. With a fraction f, s - p = L + (1 - f) for the
// integer L = s - floor(p) - 1, and it rounds up to L + 1 exactly where f is at most half
// a unit in the last place of numbers in (L, L + 1), 2^(msb(L) - 53) (a tie goes to
// L + 1, which is even in those units).
fn gain_sub_trunc(s: u32, p: F64) -> u32 {
  let n = u32(-p.e); // at least 22: p < 2^31
  var whole = 0u;
  var fraction = p.m;
  if (n < 32u) {
    whole = (p.m.x >> n) | (p.m.y << (32u - n));
    fraction = vec2u(p.m.x & ((1u << n) - 1u), 0u);
  } else if (n < 53u) {
    whole = p.m.y >> (n - 32u);
    fraction = vec2u(p.m.x, p.m.y & ((1u << (n - 32u)) - 1u));
  }
  if (fraction.x == 0u && fraction.y == 0u) {
    return s - whole;
  }
  let l = s - whole - 1u;
  let k = firstLeadingBit(i32(l)) - 53 + i32(n); // l < 2^31; msb(0) = -1
  if (k < 0) {
    return l;
  }
  if (k >= 53) {
    return l + 1u;
  }
  let uk = u32(k);
  let limit = select(vec2u(0u, 1u << (uk - 32u)), vec2u(1u << uk, 0u), uk < 32u);
  return l + select(1u, 0u, mantissa_less(limit, fraction));
}

struct Gain {
  sv_sq: u32,
  // (int64)(gain * gain * sigma1_sq), below 2^64
  numer: vec2u,
}

// libvmaf's double steps for sigma1_sq >= sigma_nsq (2^17), sigma12 and sigma2_sq > 0;
// s1_eps is fl(sigma1_sq + eps), limit the gain limit.
fn vif_gain(s1: u32, s1_eps: F64, s12: u32, s2: u32, limit: F64) -> Gain {
  let g = gain_div(f64_from_u32(s12), s1_eps);
  let g_s12 = gain_mul_u32(g, s12);
  var sv_sq = 0u;
  if (f64_less(g_s12, f64_from_u32(s2))) {
    sv_sq = gain_sub_trunc(s2, g_s12);
  }
  let gain = f64_min(g, limit);
  return Gain(sv_sq, gain_trunc(gain_mul_u32(gain_square(gain), s1)));
}
