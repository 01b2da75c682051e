// Contrast masking sums of one scale, DLM and AIM together: each coefficient under test
// (x = |weighted restored| for DLM, |weighted additive| for AIM) is lowered by a masking
// threshold (the 3x3 sum of the masker's |csf| / 30 with the centre counted as
// |csf| / 15, all three orientations), and the cube of what is left is summed in int64
// per row, each row shifted with rounding, rows added (libvmaf's i4_adm_cm / adm_cm).
// One workgroup per row of libvmaf's walk; rows 0 and h-1 mirror the row above to 1 and
// clamp the one below to h-1 (and the same for columns).
// Needs adm/params.wgsl, common/u64.wgsl, common/i64.wgsl, adm/csf.wgsl, adm/sums.wgsl.

@group(0) @binding(3) var<uniform> params: AdmParams;
@group(0) @binding(7) var<storage, read> dec: array<i32>;
@group(0) @binding(8) var<storage, read> flt: array<i32>;

var<workgroup> mask_partial: array<vec2u, 6 * SUM_WG>;

struct Window {
  up: u32,
  mid: u32,
  down: u32,
  left: u32,
  centre: u32,
  right: u32,
}

// The 3x3 window without its centre, of flt band `band`.
fn masking_neighbours(band: u32, win: Window) -> i32 {
  let b = band * params.band_cap;
  let up = b + win.up;
  let mid = b + win.mid;
  let down = b + win.down;
  return flt[up + win.left] + flt[up + win.centre] + flt[up + win.right] + flt[mid + win.left] + flt[mid + win.right] + flt[down + win.left] + flt[down + win.centre] + flt[down + win.right];
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
  for (var j = params.m_col0 + li; j < params.m_col1; j += SUM_WG) {
    let win = Window(up * w, row * w, down * w, select(j - 1u, 1u, j == 0u), j, select(j + 1u, w - 1u, j == w - 1u));
    let at = row * w + j;
    // thresholds: DLM masks with the additive part, AIM with the restored one
    var thr_dlm = 0;
    var thr_aim = 0;
    for (var theta = 0u; theta < 3u; theta++) {
      let r = dec[theta * c + at];
      let a = dec[(3u + theta) * c + at];
      if (scale0) {
        thr_dlm += masking_neighbours(3u + theta, win) + masking_centre_scale0(csf_scale0(a, theta));
        thr_aim += masking_neighbours(theta, win) + masking_centre_scale0(csf_scale0(r, theta));
      } else {
        thr_dlm += masking_neighbours(3u + theta, win) + scaled_magnitude_q32(a, ONE_BY_15_Q32);
        thr_aim += masking_neighbours(theta, win) + scaled_magnitude_q32(r, ONE_BY_15_Q32);
      }
    }
    for (var theta = 0u; theta < 3u; theta++) {
      let r = dec[theta * c + at];
      let a = dec[(3u + theta) * c + at];
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
  masking_row(params.m_row0 + wg.x, li, true);
}

@compute @workgroup_size(SUM_WG)
fn masking_scale123(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_index) li: u32) {
  masking_row(params.m_row0 + wg.x, li, false);
}
