// The denominator sums of one scale: per row of the score region the uint64 sum of the
// reference detail bands' cubes (h, v, d), shifted with rounding per row as libvmaf does,
// then added to the scale's uint64 sums. One workgroup per row; integer sums, so the
// result does not depend on the order threads or workgroups run in.
// Needs adm/params.wgsl, common/u64.wgsl, common/i64.wgsl, adm/sums.wgsl.

@group(0) @binding(3) var<uniform> params: AdmParams;
@group(0) @binding(5) var<storage, read> det: array<i32>;

var<workgroup> den_partial: array<vec2u, 3 * SUM_WG>;

// Scale 0: |c|^3 of an int16 coefficient (< 2^46).
fn den_cube_scale0(v: i32) -> vec2u {
  let c = u32(abs(v));
  return u64_mul_u32(c * c, c);
}

// Scales 1..3: ((c^2 + 2^sq) >> sq) * c rounded and shifted, uint64 (wraps as in C).
fn den_cube_int32(v: i32) -> vec2u {
  let c = abs_u32(v);
  let sq = params.den_square_shift;
  let square = u64_shr(u64_add(u64_mul_u32(c, c), vec2u(1u << sq, 0u)), sq);
  return u64_shr(u64_add(u64_mul_wrap(square, c), vec2u(half_of(params.den_cube_shift), 0u)), params.den_cube_shift);
}

fn den_row(row: u32, li: u32, scale0: bool) {
  var acc = array<vec2u, 3>(vec2u(0u), vec2u(0u), vec2u(0u));
  let base = row * params.w;
  for (var j = params.s_left + li; j < params.s_right; j += SUM_WG) {
    for (var theta = 0u; theta < 3u; theta++) {
      let v = det[theta * params.band_cap + base + j];
      var cube: vec2u;
      if (scale0) {
        cube = den_cube_scale0(v);
      } else {
        cube = den_cube_int32(v);
      }
      acc[theta] = u64_add(acc[theta], cube);
    }
  }
  for (var theta = 0u; theta < 3u; theta++) {
    den_partial[theta * SUM_WG + li] = acc[theta];
  }
  workgroupBarrier();
  // one thread finishes the row: fewer barriers than a tree, which lavapipe compiles slowly
  if (li == 0u) {
    let shift = params.den_row_shift;
    for (var theta = 0u; theta < 3u; theta++) {
      var row = vec2u(0u);
      for (var t = 0u; t < SUM_WG; t++) {
        row = u64_add(row, den_partial[theta * SUM_WG + t]);
      }
      add_sum(params.sums_base + 2u * theta, u64_shr(u64_add(row, vec2u(half_of(shift), 0u)), shift));
    }
  }
}

@compute @workgroup_size(SUM_WG)
fn den_scale0(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_index) li: u32) {
  den_row(params.s_top + wg.x, li, true);
}

@compute @workgroup_size(SUM_WG)
fn den_scale123(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_index) li: u32) {
  den_row(params.s_top + wg.x, li, false);
}
