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

// fl(a / b): common/f64.wgsl's quotient bits (q = floor(a.m * 2^57 / b.m) in (2^56,
// 2^58), a sticky bit below) rounded with short shifts.
fn gain_div(a: F64, b: F64) -> F64 {
  let v = f64_div_bits(a, b);
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

// The same results where a cheap estimate decides them (nearly every sample), without the
// long division: libvmaf's value sigma2_sq - g · sigma12 is within 2^-19 of the real
// R = s2 - P / (1 + x), and gain² · sigma1_sq within 2^-19 of T = P / (1 + x)², where
// P = s12² / s1 and x = eps' / s1 (eps' = fl(s1 + eps) - s1, below 2^-17): every double
// operand below 2^32, each of the 4 roundings at most 2^-53 relative. P is split into an
// integer q and a remainder r = s12² - q · s1 computed exactly (in 32 bits: |r| < s1 / 2 +
// s1 / 128 once q is within one of P), so that R and T are an exact integer plus a
// fraction in (-1, 1) estimated in f32 with an error far below 2^-19. sv_sq = max(floor(R),
// 0) and (int64) T are decided where neither fraction lies within DECIDE of an integer.
// Not decided (the caller takes vif_gain): a gain within 2^-16 of the limit, P >= 2^31
// with the gain below the limit (rare), or a fraction near an integer (0.015 % of the samples
// with double steps on the golden 8-bit pairs, all causes together). Where the gain is capped, T does not come from here: the caller takes
// (int64) fl(fl(limit²) · s1) (capped is set, numer left 0).
const DECIDE: f32 = 1.0 / 16384.0;

struct FastGain {
  gain: Gain,
  decided: bool,
  capped: bool,
}

// eps_step: fl(s1 + eps) - s1 (exact in f32: at most 18 bits times a power of 2); limit:
// the gain limit, to within 2^-20.
fn vif_gain_fast(s1: u32, eps_step: f32, s12: u32, s2: u32, limit: f32) -> FastGain {
  let undecided = FastGain(Gain(0u, vec2u(0u, 0u)), false, false);
  let fa = f32(s12);
  let fb = f32(s1);
  // P, relative error below 2^-20 (2.5 ulps for the division)
  let pf = fa * fa / fb;
  // the double gain g < s12 / s1 is below the limit where s12 / s1 < limit (1 - 2^-16),
  // above it where s12 / s1 > limit (1 + 2^-16) (g is within 2^-33 of s12 / s1)
  let capped = fa > limit * fb * (1.0 + 1.0 / 65536.0);
  if (!capped && fa >= limit * fb * (1.0 - 1.0 / 65536.0)) {
    return undecided;
  }
  if (pf >= 2147483648.0) {
    // P > 2^31 > sigma2_sq: sv_sq is 0
    if (capped && pf >= 2147491840.0) {
      return FastGain(Gain(0u, vec2u(0u, 0u)), true, true);
    }
    return undecided;
  }
  let q0 = u32(pf);
  let aa = u64_mul_u32(s12, s12);
  let qb = u64_mul_u32(q0, s1);
  let r0_lo = aa.x - qb.x;
  let r0_hi = bitcast<i32>(aa.y - qb.y - select(0u, 1u, aa.x < qb.x));
  let r0 = f32(r0_hi) * 4294967296.0 + f32(r0_lo);
  let q1 = u32(i32(q0) + i32(round(r0 / fb)));
  // P - q1 = r1 / s1 in (-0.51, 0.51): r1 fits an int32, so its low 32 bits are all of it
  let r1 = bitcast<i32>(s12 * s12 - q1 * s1);
  let t1 = f32(r1) / fb;
  // P · x, at most 0.11 (P < 2^31, s1 >= 2^17); P (1 + x)^-k = P - k P x + O(2^-35)
  let px = (f32(q1) + t1) * (eps_step / fb);
  // R = (s2 - q1) + u, T = q1 + v; u, v in (-1, 1)
  let u = px - t1;
  let v = t1 - 2.0 * px;
  let u_lo = floor(u - DECIDE);
  let v_lo = floor(v - DECIDE);
  let d = bitcast<i32>(s2 - q1);
  let r_floor = d + i32(u_lo);
  // floor(R) unknown only matters where R may be 1 or more
  let sv_decided = u_lo == floor(u + DECIDE) || r_floor + 1 <= 0;
  if (!sv_decided || (!capped && v_lo != floor(v + DECIDE))) {
    return undecided;
  }
  let t = select(max(i32(q1) + i32(v_lo), 0), 0, capped);
  return FastGain(Gain(u32(max(r_floor, 0)), vec2u(u32(t), 0u)), true, capped);
}
