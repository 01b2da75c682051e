// Contrast masking sums of one scale, DLM and AIM together: each coefficient under test
// (x = |weighted restored| for DLM, |weighted additive| for AIM) is lowered by a masking
// threshold (the 3x3 sum of the masker's |csf| / 30 with the centre counted as
// |csf| / 15, all three orientations), and the cube of what is left is summed in int64
// per row, each row shifted with rounding, rows added (libvmaf's i4_adm_cm / adm_cm).
// One workgroup per row of libvmaf's walk and frame (z); rows 0 and h-1 mirror the row above to 1 and
// clamp the one below to h-1 (and the same for columns).
// The same workgroups finish the denominator's rows (den.wgsl): libvmaf's masking walk
// covers the rows and columns the denominator sums.
// Needs adm/params.wgsl, common/u64.wgsl, common/i64.wgsl, adm/csf.wgsl, adm/sums.wgsl,
// adm/den.wgsl.
//
// det: the decoupled bands (see decouple.wgsl); the masking filter's inputs (|csf| / 30)
// are computed from them where read (they lie in the decoupled region).

@group(0) @binding(3) var<uniform> params: AdmParams;
@group(0) @binding(5) var<storage, read> det: array<i32>;

var<workgroup> mask_partial: array<vec2u, 6 * SUM_WG>;

struct Window {
  up: u32,
  mid: u32,
  down: u32,
  left: u32,
  centre: u32,
  right: u32,
}

// The masking filter's input of a decoupled coefficient of orientation theta: |csf| / 30.
fn masking_flt(v: i32, theta: u32, scale0: bool) -> i32 {
  if (scale0) {
    return masking_flt_scale0(csf_scale0(v, theta));
  }
  return scaled_magnitude_q32(v, ONE_BY_30_Q32);
}

// The 3x3 window without its centre, of the filter's input of det band `band`.
fn masking_neighbours(band: u32, win: Window, scale0: bool) -> i32 {
  let b = band * params.band_cap;
  let up = b + win.up;
  let mid = b + win.mid;
  let down = b + win.down;
  let theta = band % 3u;
  let f = vec4i(masking_flt(det[up + win.left], theta, scale0), masking_flt(det[up + win.centre], theta, scale0), masking_flt(det[up + win.right], theta, scale0), masking_flt(det[mid + win.left], theta, scale0));
  let g = vec4i(masking_flt(det[mid + win.right], theta, scale0), masking_flt(det[down + win.left], theta, scale0), masking_flt(det[down + win.centre], theta, scale0), masking_flt(det[down + win.right], theta, scale0));
  // int32 sums wrap as in libvmaf
  return f.x + f.y + f.z + f.w + g.x + g.y + g.z + g.w;
}

// ((int32)((x^2 + 2^(sq-1)) >> sq) * x + round) >> cube in int64, for 0 <= x < 2^31.
fn masked_cube(x: i32, square_shift: u32, cube_shift: u32) -> vec2u {
  let ux = u32(x);
  let square = bitcast<i32>(u64_shr(u64_add(u64_mul_u32(ux, ux), vec2u(1u << (square_shift - 1u), 0u)), square_shift).x);
  return i64_sar(u64_add(i64_mul(square, x), vec2u(half_of(cube_shift), 0u)), cube_shift);
}

// x = |value| - threshold (int32 arithmetic, wraps as in C), at least 0.
fn masked(magnitude: i32, threshold: i32) -> i32 {
  return max(magnitude - threshold, 0);
}

fn masking_row(row: u32, li: u32, scale0: bool) {
  var acc = array<vec2u, 6>(vec2u(0u), vec2u(0u), vec2u(0u), vec2u(0u), vec2u(0u), vec2u(0u));
  let w = params.w;
  let h = params.h;
  let c = params.band_cap;
  let up = select(row - 1u, 1u, row == 0u);
  let down = select(row + 1u, h - 1u, row == h - 1u);
  let aim = params.skip_aim == 0u;
  // this frame's bands
  let f = sums_frame * frames.band_words;
  for (var j = params.m_col0 + li; j < params.m_col1; j += SUM_WG) {
    let win = Window(f + up * w, f + row * w, f + down * w, select(j - 1u, 1u, j == 0u), j, select(j + 1u, w - 1u, j == w - 1u));
    let at = f + row * w + j;
    // thresholds: DLM masks with the additive part, AIM with the restored one
    var thr_dlm = 0;
    var thr_aim = 0;
    for (var theta = 0u; theta < 3u; theta++) {
      let r = det[theta * c + at];
      let a = det[(3u + theta) * c + at];
      if (scale0) {
        thr_dlm += masking_neighbours(3u + theta, win, true) + masking_centre_scale0(csf_scale0(a, theta));
        thr_aim += masking_neighbours(theta, win, true) + masking_centre_scale0(csf_scale0(r, theta));
      } else {
        thr_dlm += masking_neighbours(3u + theta, win, false) + scaled_magnitude_q32(a, ONE_BY_15_Q32);
        thr_aim += masking_neighbours(theta, win, false) + scaled_magnitude_q32(r, ONE_BY_15_Q32);
      }
    }
    for (var theta = 0u; theta < 3u; theta++) {
      let r = det[theta * c + at];
      let a = det[(3u + theta) * c + at];
      if (scale0) {
        // uint16 weight times int16 coefficient (< 2^31); threshold in the same Q format
        let weight = bitcast<i32>(csf_weight(theta));
        let sub = select(10u, 12u, theta == 2u);
        let square = select(29u, 30u, theta == 2u);
        let cube = select(params.cube_hv, params.cube_d, theta == 2u);
        acc[theta] = u64_add(acc[theta], masked_cube(masked(abs(r * weight), thr_dlm << sub), square, cube));
        if (aim) {
          acc[3u + theta] = u64_add(acc[3u + theta], masked_cube(masked(abs(a * weight), thr_aim << sub), square, cube));
        }
      } else {
        acc[theta] = u64_add(acc[theta], masked_cube(masked(abs(r), thr_dlm), 30u, params.cube_hv));
        if (aim) {
          acc[3u + theta] = u64_add(acc[3u + theta], masked_cube(masked(abs(a), thr_aim), 30u, params.cube_hv));
        }
      }
    }
  }
  for (var k = 0u; k < 6u; k++) {
    mask_partial[k * SUM_WG + li] = acc[k];
  }
  workgroupBarrier();
  // one thread finishes the row: fewer barriers than a tree, which lavapipe compiles slowly
  if (li == 0u) {
    den_finish_row(sums_frame, row);
    let shift = params.row_shift;
    for (var k = 0u; k < 6u; k++) {
      var row = vec2u(0u);
      for (var t = 0u; t < SUM_WG; t++) {
        row = u64_add(row, mask_partial[k * SUM_WG + t]);
      }
      // num after den: words 6.. of the scale; aim after num: words 12..
      add_sum(params.sums_base + 6u + 2u * k, i64_sar(u64_add(row, vec2u(half_of(shift), 0u)), shift));
    }
  }
}

@compute @workgroup_size(SUM_WG)
fn masking_scale0(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_index) li: u32) {
  sums_frame = wg.z;
  masking_row(params.m_row0 + wg.x, li, true);
}

@compute @workgroup_size(SUM_WG)
fn masking_scale123(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_index) li: u32) {
  sums_frame = wg.z;
  masking_row(params.m_row0 + wg.x, li, false);
}
