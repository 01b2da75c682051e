// The DWT of a scale (dwt.wgsl) with its decoupling and CSF weighting, one thread per
// coefficient and frame (z), both pictures: the distorted detail bands split into the
// part restored from the reference, r = clamp(t / o, 0, 1) * o (boosted up to the
// enhancement gain where the (h, v) orientation turned by less than 1 degree), and the
// additive part a = t - r, over the filter region; then the masking inputs of both (the
// masking pass takes |csf| / 30 of them). The same threads add the reference bands' cubes
// to the denominator's row sums (den.wgsl). Needs adm/params.wgsl, common/u64.wgsl,
// common/i64.wgsl, common/frame.wgsl, adm/float-emulation.wgsl, adm/csf.wgsl,
// adm/sums.wgsl, adm/den.wgsl, adm/dwt.wgsl (whose bindings it uses).
//
// det: scale 0: r h, v, d, a h, v, d; scales 1..3: their CSF values instead.

// the denominator's cubes of the workgroup's 8x8 coefficients, per orientation
var<workgroup> den_tile: array<vec2u, 3 * 64>;

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

fn orientation_test(x: Coefficients) -> bool {
  let dp = u64_add(i64_mul(x.o.x, x.t.x), i64_mul(x.o.y, x.t.y));
  let o_mag = u64_add(i64_mul(x.o.x, x.o.x), i64_mul(x.o.y, x.o.y));
  let t_mag = u64_add(i64_mul(x.t.x, x.t.x), i64_mul(x.t.y, x.t.y));
  return angle_flag(dp, o_mag, t_mag);
}

// Writes the decoupled bands of coefficient `at` (counted from the frame's first band element).
fn decouple_coefficient_scale0(x: Coefficients, at: u32) {
  let angle = orientation_test(x);
  let c = params.band_cap;
  for (var theta = 0u; theta < 3u; theta++) {
    let o = x.o[theta];
    let t = x.t[theta];
    let k = ratio_scale0(o, t);
    let r = int16_of(restore(o, t, k, angle, (k * o + 16384) >> 15u));
    let a = int16_of(t - r);
    det[theta * c + at] = r;
    det[(3u + theta) * c + at] = a;
  }
}

fn decouple_coefficient_int32(x: Coefficients, at: u32) {
  let angle = orientation_test(x);
  let c = params.band_cap;
  for (var theta = 0u; theta < 3u; theta++) {
    let o = x.o[theta];
    let t = x.t[theta];
    let k = ratio_int32(o, t);
    let r = restore(o, t, k, angle, bitcast<i32>(i64_sar(u64_add(i64_mul(k, o), vec2u(16384u, 0u)), 15u).x));
    let a = t - r;
    let weight = csf_weight(theta);
    det[theta * c + at] = csf_q32(r, weight);
    det[(3u + theta) * c + at] = csf_q32(a, weight);
  }
}

fn within(x: u32, y: u32, left: u32, top: u32, right: u32, bottom: u32) -> bool {
  return x >= left && x < right && y >= top && y < bottom;
}

fn dwt_decouple(gid: vec3u, lid: vec3u, scale0: bool) {
  frame_z = gid.z;
  let x = gid.x;
  let y = gid.y;
  let inside = x < params.w && y < params.h;
  var bands = Coefficients(vec3i(0), vec3i(0));
  if (inside) {
    bands = Coefficients(dwt_bands(0u, x, y, scale0).yzw, dwt_bands(1u, x, y, scale0).yzw);
  }
  // scale 0 of adm_skip_scale0 needs only the a bands
  let filtered = inside && params.low_only == 0u && within(x, y, params.f_left, params.f_top, params.f_right, params.f_bottom);
  let scored = filtered && within(x, y, params.s_left, params.s_top, params.s_right, params.s_bottom);
  let li = lid.y * 8u + lid.x;
  for (var theta = 0u; theta < 3u; theta++) {
    var cube = vec2u(0u);
    if (scored) {
      if (scale0) {
        cube = den_cube_scale0(bands.o[theta]);
      } else {
        cube = den_cube_int32(bands.o[theta]);
      }
    }
    den_tile[theta * 64u + li] = cube;
  }
  if (filtered) {
    let at = frame_z * frames.band_words + y * params.w + x;
    if (scale0) {
      decouple_coefficient_scale0(bands, at);
    } else {
      decouple_coefficient_int32(bands, at);
    }
  }
  workgroupBarrier();
  // the first thread of each row of the tile adds the row's 8 cubes
  if (lid.x == 0u && params.low_only == 0u && y >= params.s_top && y < params.s_bottom) {
    for (var theta = 0u; theta < 3u; theta++) {
      var sum = vec2u(0u);
      for (var k = 0u; k < 8u; k++) {
        sum = u64_add(sum, den_tile[theta * 64u + lid.y * 8u + k]);
      }
      if (any(sum != vec2u(0u))) {
        den_add(frame_z, y, theta, sum);
      }
    }
  }
}

@compute @workgroup_size(8, 8)
fn dwt_decouple_scale0(@builtin(global_invocation_id) gid: vec3u, @builtin(local_invocation_id) lid: vec3u) {
  dwt_decouple(gid, lid, true);
}

@compute @workgroup_size(8, 8)
fn dwt_decouple_scale123(@builtin(global_invocation_id) gid: vec3u, @builtin(local_invocation_id) lid: vec3u) {
  dwt_decouple(gid, lid, false);
}
