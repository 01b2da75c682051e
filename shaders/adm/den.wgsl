// The denominator sums of one scale, in two steps that ride on other passes: the
// DWT + decoupling pass adds each row's uint64 sums of the reference detail bands' cubes
// (h, v, d) into `den_rows` (it has those bands, which it does not store), and the
// masking pass, one workgroup per row of the same region, shifts each row's sums with
// rounding as libvmaf does, adds them to the scale's sums and clears the row for the
// next scale. Integer sums: the result does not depend on the order threads or
// workgroups run in. Needs adm/params.wgsl, common/u64.wgsl, common/i64.wgsl, adm/sums.wgsl.

// per frame (frames.rows_words apart): [row][h, v, d] uint64 sums as (low, high) words
@group(0) @binding(11) var<storage, read_write> den_rows: array<atomic<u32>>;

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

fn den_row_word(frame: u32, row: u32, theta: u32) -> u32 {
  return frame * frames.rows_words + (row * 3u + theta) * 2u;
}

fn den_add(frame: u32, row: u32, theta: u32, v: vec2u) {
  let at = den_row_word(frame, row, theta);
  let old = atomicAdd(&den_rows[at], v.x);
  let carry = select(0u, 1u, old + v.x < old);
  atomicAdd(&den_rows[at + 1u], v.y + carry);
}

// The row's sums, shifted with rounding, into the scale's den sums (words 0..5); the row
// is left at zero.
fn den_finish_row(frame: u32, row: u32) {
  let shift = params.den_row_shift;
  for (var theta = 0u; theta < 3u; theta++) {
    let at = den_row_word(frame, row, theta);
    let sum = vec2u(atomicLoad(&den_rows[at]), atomicLoad(&den_rows[at + 1u]));
    atomicStore(&den_rows[at], 0u);
    atomicStore(&den_rows[at + 1u], 0u);
    add_sum(params.sums_base + 2u * theta, u64_shr(u64_add(sum, vec2u(half_of(shift), 0u)), shift));
  }
}
