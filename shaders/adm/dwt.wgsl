// One level of libvmaf's fixed-point Daubechies-2 DWT of picture z (0 = reference, 1 =
// distorted) of frame frame_z of a batch, libvmaf's two passes in one: each thread computes the temporary lo and hi values of the
// vertical pass that its output's four horizontal taps read (libvmaf keeps them in a
// temporary row), then the horizontal pass's four bands (decouple.wgsl runs it for both
// pictures of a frame and decouples the result in the same thread). Filters (Q15):
// lo = {15826, 27411, 7345, -4240}, hi = {-4240, -7345, 27411, -15826};
// bands: a = lo V + lo H, v = lo V + hi H, h = hi V + lo H, d = hi V + hi H.
// Needs adm/params.wgsl, common/u64.wgsl, common/i64.wgsl, common/frame.wgsl.
//
// libvmaf's x86 kernels read the taps 2j-1 .. 2j+2 unmirrored at the last column when it
// falls in a vector chunk (params.overshoot). Past the row they read what follows it in
// libvmaf's temporary buffer: [lo | hi] per picture at scale 0, [lo ref | hi ref | lo dis
// | hi dis] at scales 1..3, and past the last row the previous scale's last temporary
// row, or at scale 1 memory never written (0), or at scale 0 a coarser scale's last row
// from the previous frame (kept in `stale` by dwt_stale). Each of these is a vertical-pass
// value this pass can compute again, except the previous frame's. See
// packages/adm/src/dwt2.ts.

@group(0) @binding(3) var<uniform> params: AdmParams;
// a bands of every scale (int16 values at scale 0, int32 after)
@group(0) @binding(4) var<storage, read_write> pyr: array<i32>;
// this scale's decoupled bands (see decouple.wgsl)
@group(0) @binding(5) var<storage, read_write> det: array<i32>;
// what scale 0's next frame reads past its hi rows (used when one frame runs at a time)
@group(0) @binding(6) var<storage, read_write> stale: array<i32>;

// the frame (in the batch) of this invocation
var<private> frame_z: u32;

// dwt2_src_indices_filt: -1 -> 1, n + k -> n - 1 - k
fn dwt_mirror(k: i32, n: i32) -> i32 {
  if (k < 0) {
    return -k;
  }
  if (k >= n) {
    return 2 * n - k - 1;
  }
  return k;
}

fn dwt_taps(centre: i32, n: i32) -> vec4i {
  return vec4i(dwt_mirror(centre - 1, n), dwt_mirror(centre, n), dwt_mirror(centre + 1, n), dwt_mirror(centre + 2, n));
}

// int32 of floor((lo/hi filter . s + round) / 2^shift) with an int64 sum, exactly: each
// s = hi * 2^16 + lo, the sum is H * 2^16 + A - B with H an exact int32 and A, B the
// uint32 sums of the positive and negative taps times the low halves.
fn dwt_shifted(h: i32, a: u32, b: u32, shift: u32) -> i32 {
  if (shift == 0u) {
    return (h << 16u) + bitcast<i32>(a - b);
  }
  var f: i32;
  if (a >= b) {
    f = bitcast<i32>((a - b) >> shift);
  } else {
    f = -bitcast<i32>((b - a + (1u << shift) - 1u) >> shift);
  }
  return (h << (16u - shift)) + f;
}

fn dwt_lo_wide(s: vec4i, round: u32, shift: u32) -> i32 {
  let l = bitcast<vec4u>(s) & vec4u(0xffffu);
  let a = 15826u * l.x + 27411u * l.y + 7345u * l.z + round;
  let b = 4240u * l.w;
  let h = s >> vec4u(16u);
  return dwt_shifted(15826 * h.x + 27411 * h.y + 7345 * h.z - 4240 * h.w, a, b, shift);
}

fn dwt_hi_wide(s: vec4i, round: u32, shift: u32) -> i32 {
  let l = bitcast<vec4u>(s) & vec4u(0xffffu);
  let a = 27411u * l.z + round;
  let b = 4240u * l.x + 7345u * l.y + 15826u * l.w;
  let h = s >> vec4u(16u);
  return dwt_shifted(27411 * h.z - 4240 * h.x - 7345 * h.y - 15826 * h.w, a, b, shift);
}

// Scale 0's 32-bit filters (int32 arithmetic wraps as in libvmaf), stored as int16.
fn dwt_lo16(s: vec4i, round: i32, shift: u32) -> i32 {
  return int16_of((15826 * s.x + 27411 * s.y + 7345 * s.z - 4240 * s.w + round) >> shift);
}

fn dwt_hi16(s: vec4i, round: i32, shift: u32) -> i32 {
  return int16_of((27411 * s.z - 4240 * s.x - 7345 * s.y - 15826 * s.w + round) >> shift);
}

// ---- the vertical pass: (lo, hi) of picture z's temporary row i at column k (k < in_w)

fn dwt_pixel(z: u32, x: u32, y: i32) -> i32 {
  let b = sample_byte_index(planes.plane[0], x, u32(y));
  if (z == 0u) {
    return i32(sample_in_word(ref_frame[frame_z * frames.ref_words + (b >> 2u)], b));
  }
  return i32(sample_in_word(dist_frame[frame_z * frames.dist_words + (b >> 2u)], b));
}

// Scale 0: pixels (8 to 16 bits) minus the mid level (lo) and with rounding (hi), int16.
fn dwt_vertical0(z: u32, rows: vec4i, k: u32) -> vec2i {
  let s = vec4i(dwt_pixel(z, k, rows.x), dwt_pixel(z, k, rows.y), dwt_pixel(z, k, rows.z), dwt_pixel(z, k, rows.w));
  return vec2i(dwt_lo16(s, -bitcast<i32>(params.centre), params.v_shift), dwt_hi16(s, bitcast<i32>(params.v_round), params.v_shift));
}

// Scales 1..3: a band (at `src` in this frame's pyr, `w` wide), int64 sums stored as int32.
fn dwt_vertical_wide(src: u32, w: u32, rows: vec4i, k: u32, round: u32, shift: u32) -> vec2i {
  let base = frame_z * frames.pyr_words + src + k;
  let s = vec4i(pyr[base + u32(rows.x) * w], pyr[base + u32(rows.y) * w], pyr[base + u32(rows.z) * w], pyr[base + u32(rows.w) * w]);
  return vec2i(dwt_lo_wide(s, round, shift), dwt_hi_wide(s, round, shift));
}

fn dwt_vertical(z: u32, rows: vec4i, k: u32, scale0: bool) -> vec2i {
  if (scale0) {
    return dwt_vertical0(z, rows, k);
  }
  return dwt_vertical_wide(select(params.src_ref, params.src_dis, z == 1u), params.in_w, rows, k, params.v_round, params.v_shift);
}

// ---- the horizontal pass: one thread per output sample

// The taps of output column j: unmirrored at an overshooting last column (may pass in_w).
fn dwt_columns(j: i32) -> vec4i {
  if (params.overshoot != 0u && j == i32(params.w) - 1) {
    return vec4i(2 * j - 1, 2 * j, 2 * j + 1, 2 * j + 2);
  }
  return dwt_taps(2 * j, i32(params.in_w));
}

// What a hi row reads past its end (e = 0, 1): see the top of this file.
fn dwt_past_hi(z: u32, rows: vec4i, e: u32, scale0: bool) -> i32 {
  if (scale0) {
    // an int32 of the coarser scale read as two int16
    let old = stale[0];
    return select(int16_of(old), old >> 16u, e == 1u);
  }
  if (z == 0u) {
    return dwt_vertical(1u, rows, e, false).x; // the distorted lo row
  }
  if (params.has_prev != 0u) {
    // the previous scale's last temporary row, segment prev_seg (lo/hi of ref/dis)
    let prev_rows = dwt_taps(2 * i32(params.prev_row), i32(params.prev_in_h));
    let src = select(params.prev_src_ref, params.prev_src_dis, params.prev_seg >= 2u);
    let v = dwt_vertical_wide(src, params.prev_in_w, prev_rows, params.prev_col + e, params.prev_v_round, params.prev_v_shift);
    return select(v.x, v.y, (params.prev_seg & 1u) == 1u);
  }
  return 0;
}

// Temporary (lo, hi) of picture z at the thread's row, column k (k may pass the row by 1 or 2).
fn dwt_tmp(z: u32, rows: vec4i, k: i32, scale0: bool) -> vec2i {
  let w = params.in_w;
  if (u32(k) < w) {
    return dwt_vertical(z, rows, u32(k), scale0);
  }
  let e = u32(k) - w;
  // lo runs into this picture's hi row
  return vec2i(dwt_vertical(z, rows, e, scale0).y, dwt_past_hi(z, rows, e, scale0));
}

// The bands (a, h, v, d) of picture z at row y, column x of this scale, for frame
// frame_z; stores the a band in `pyr` (the next scale's input).
fn dwt_bands(z: u32, x: u32, y: u32, scale0: bool) -> vec4i {
  let rows = dwt_taps(2 * i32(y), i32(params.in_h));
  let c = dwt_columns(i32(x));
  let t0 = dwt_tmp(z, rows, c.x, scale0);
  let t1 = dwt_tmp(z, rows, c.y, scale0);
  let t2 = dwt_tmp(z, rows, c.z, scale0);
  let t3 = dwt_tmp(z, rows, c.w, scale0);
  let lo = vec4i(t0.x, t1.x, t2.x, t3.x);
  let hi = vec4i(t0.y, t1.y, t2.y, t3.y);
  var b: vec4i;
  if (scale0) {
    b = vec4i(dwt_lo16(lo, 32768, 16u), dwt_lo16(hi, 32768, 16u), dwt_hi16(lo, 32768, 16u), dwt_hi16(hi, 32768, 16u));
  } else {
    b = vec4i(dwt_lo_wide(lo, params.h_round, params.h_shift), dwt_lo_wide(hi, params.h_round, params.h_shift), dwt_hi_wide(lo, params.h_round, params.h_shift), dwt_hi_wide(hi, params.h_round, params.h_shift));
  }
  pyr[frame_z * frames.pyr_words + select(params.dst_ref, params.dst_dis, z == 1u) + y * params.w + x] = b.x;
  return b;
}

// What the next frame's scale 0 reads past its hi rows: this scale's temporary value at
// its last row, segment stale_seg, column stale_col (one thread, frame 0 of a group of one).
@compute @workgroup_size(1)
fn dwt_stale() {
  frame_z = 0u;
  let rows = dwt_taps(2 * i32(params.h - 1u), i32(params.in_h));
  let z = params.stale_seg >> 1u;
  let v = dwt_vertical_wide(select(params.src_ref, params.src_dis, z == 1u), params.in_w, rows, params.stale_col, params.v_round, params.v_shift);
  stale[0] = select(v.x, v.y, (params.stale_seg & 1u) == 1u);
}
