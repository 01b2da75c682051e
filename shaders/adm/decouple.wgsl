// Decoupling and CSF weighting over the filter region, one thread per coefficient: the
// distorted detail bands split into the part restored from the reference,
// r = clamp(t / o, 0, 1) * o (boosted up to the enhancement gain where the (h, v)
// orientation turned by less than 1 degree), and the additive part a = t - r; then the
// masking inputs of both. Needs adm/params.wgsl, common/u64.wgsl, common/i64.wgsl,
// adm/float-emulation.wgsl, adm/csf.wgsl.
//
// dec: scale 0: r h, v, d, a h, v, d; scales 1..3: their CSF values instead.
// flt: |csf| / 30 of r h, v, d, then of a h, v, d.

@group(0) @binding(3) var<uniform> params: AdmParams;
@group(0) @binding(5) var<storage, read> det: array<i32>;
@group(0) @binding(7) var<storage, read_write> dec: array<i32>;
@group(0) @binding(8) var<storage, read_write> flt: array<i32>;

// k = t / o in Q15 through libvmaf's table of 2^30 / o (integer division here),
// clamped to [0, 1]; int64 product, as C's.
fn clamp_ratio(k: vec2u) -> i32 {
  if (i64_is_neg(k)) {
    return 0;
  }
  if (k.y != 0u || k.x > 32768u) {
    return 32768;
  }
  return i32(k.x);
}

fn reciprocal_q30(m: u32) -> i32 {
  return i32(1073741824u / m);
}

// Scale 0 (int16 coefficients).
fn ratio_scale0(o: i32, t: i32) -> i32 {
  if (o == 0) {
    return 32768;
  }
  let div = select(reciprocal_q30(u32(o)), -reciprocal_q30(u32(-o)), o < 0);
  return clamp_ratio(i64_sar(u64_add(i64_mul(div, t), vec2u(16384u, 0u)), 15u));
}

// Scales 1..3: |o| >= 2^15 is first rounded to its top 15 bits (get_best15_from32), and
// the rounding term 1 << (14 + shift) is an int (INT_MIN for shift 17).
fn ratio_int32(o: i32, t: i32) -> i32 {
  if (o == 0) {
    return 32768;
  }
  let m = abs_u32(o);
  var top = m;
  var shift = 0u;
  if (m >= 32768u) {
    shift = 17u - countLeadingZeros(m);
    top = (m + (1u << (shift - 1u))) >> shift;
  }
  let product = i64_mul(reciprocal_q30(top) * select(1, -1, o < 0), t);
  let round = i64_from_i32(bitcast<i32>(1u << (14u + shift)));
  return clamp_ratio(i64_sar(u64_add(product, round), 15u + shift));
}

// libvmaf: where the angle matched and r has o's sign, r = MIN/MAX(r * gain, t) in double,
// converted back to int (truncation).
fn restore(o: i32, t: i32, k: i32, angle: bool, r: i32) -> i32 {
  if (angle && k > 0) {
    if (o > 0) {
      let boosted = gain_floor(u32(r));
      return select(t, i32(boosted), boosted < 0x80000000u && i32(boosted) < t);
    }
    if (o < 0) {
      let boosted = bitcast<i32>(0u - gain_floor(u32(-r)));
      return max(boosted, t);
    }
  }
  return r;
}

struct Coefficients {
  o: vec3i,
  t: vec3i,
}

fn coefficients(at: u32) -> Coefficients {
  let c = params.band_cap;
  return Coefficients(vec3i(det[at], det[at + c], det[at + 2u * c]), vec3i(det[at + 3u * c], det[at + 4u * c], det[at + 5u * c]));
}

fn orientation_test(x: Coefficients) -> bool {
  let dp = u64_add(i64_mul(x.o.x, x.t.x), i64_mul(x.o.y, x.t.y));
  let o_mag = u64_add(i64_mul(x.o.x, x.o.x), i64_mul(x.o.y, x.o.y));
  let t_mag = u64_add(i64_mul(x.t.x, x.t.x), i64_mul(x.t.y, x.t.y));
  return angle_flag(dp, o_mag, t_mag);
}

// The coefficient of this thread, or none outside the filter region.
fn filter_index(gid: vec3u) -> i32 {
  let j = params.f_left + gid.x;
  let i = params.f_top + gid.y;
  if (j >= params.f_right || i >= params.f_bottom) {
    return -1;
  }
  return i32(i * params.w + j);
}

@compute @workgroup_size(8, 8)
fn decouple_scale0(@builtin(global_invocation_id) gid: vec3u) {
  let index = filter_index(gid);
  if (index < 0) {
    return;
  }
  let at = u32(index);
  let x = coefficients(at);
  let angle = orientation_test(x);
  let c = params.band_cap;
  for (var theta = 0u; theta < 3u; theta++) {
    let o = x.o[theta];
    let t = x.t[theta];
    let k = ratio_scale0(o, t);
    let r = int16_of(restore(o, t, k, angle, (k * o + 16384) >> 15u));
    let a = int16_of(t - r);
    dec[theta * c + at] = r;
    dec[(3u + theta) * c + at] = a;
    flt[theta * c + at] = masking_flt_scale0(csf_scale0(r, theta));
    flt[(3u + theta) * c + at] = masking_flt_scale0(csf_scale0(a, theta));
  }
}

@compute @workgroup_size(8, 8)
fn decouple_scale123(@builtin(global_invocation_id) gid: vec3u) {
  let index = filter_index(gid);
  if (index < 0) {
    return;
  }
  let at = u32(index);
  let x = coefficients(at);
  let angle = orientation_test(x);
  let c = params.band_cap;
  for (var theta = 0u; theta < 3u; theta++) {
    let o = x.o[theta];
    let t = x.t[theta];
    let k = ratio_int32(o, t);
    let r = restore(o, t, k, angle, bitcast<i32>(i64_sar(u64_add(i64_mul(k, o), vec2u(16384u, 0u)), 15u).x));
    let a = t - r;
    let weight = csf_weight(theta);
    let csf_r = csf_q32(r, weight);
    let csf_a = csf_q32(a, weight);
    dec[theta * c + at] = csf_r;
    dec[(3u + theta) * c + at] = csf_a;
    flt[theta * c + at] = scaled_magnitude_q32(csf_r, ONE_BY_30_Q32);
    flt[(3u + theta) * c + at] = scaled_magnitude_q32(csf_a, ONE_BY_30_Q32);
  }
}
