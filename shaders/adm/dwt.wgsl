// One level of libvmaf's fixed-point Daubechies-2 DWT, reference (z = 0) and distorted
// (z = 1) together, in libvmaf's two passes: the vertical pass writes the temporary lo
// and hi rows (`tmp`), the horizontal pass turns them into the bands. Filters (Q15):
// lo = {15826, 27411, 7345, -4240}, hi = {-4240, -7345, 27411, -15826};
// bands: a = lo V + lo H, v = lo V + hi H, h = hi V + lo H, d = hi V + hi H.
// Needs adm/params.wgsl, common/u64.wgsl, common/i64.wgsl (and for dwt_vertical0
// common/frame.wgsl).
//
// libvmaf's x86 kernels read the taps 2j-1 .. 2j+2 unmirrored at the last column when it
// falls in a vector chunk (params.overshoot). Past the row they read what follows it in
// libvmaf's temporary buffer: [lo | hi] per picture at scale 0, [lo ref | hi ref | lo dis
// | hi dis] at scales 1..3, and past the last row the previous scale's last temporary
// row, or at scale 1 memory never written (0), or at scale 0 a coarser scale's last row
// from the previous frame. Every scale keeps its temporary rows here, so all of these
// are still in `tmp` when read. See packages/adm/src/dwt2.ts.

@group(0) @binding(3) var<uniform> params: AdmParams;
// a bands of every scale (int16 values at scale 0, int32 after)
@group(0) @binding(4) var<storage, read_write> pyr: array<i32>;
// detail bands of this scale: ref h, v, d, dis h, v, d
@group(0) @binding(5) var<storage, read_write> det: array<i32>;
// temporary rows of every scale
@group(0) @binding(6) var<storage, read_write> tmp: array<i32>;

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

// Index in `tmp` of segment `seg` (z * 2 + 0 for lo, + 1 for hi), row i, column k.
fn tmp_index(offset: u32, rows: u32, width: u32, seg: u32, i: u32, k: u32) -> u32 {
  return offset + (seg * rows + i) * width + k;
}

fn dwt_store(z: u32, i: u32, k: u32, lo: i32, hi: i32) {
  tmp[tmp_index(params.tmp_off, params.h, params.in_w, 2u * z, i, k)] = lo;
  tmp[tmp_index(params.tmp_off, params.h, params.in_w, 2u * z + 1u, i, k)] = hi;
}

// ---- vertical pass: one thread per temporary row i (output row) and column k

fn dwt_pixel(z: u32, x: u32, y: i32) -> i32 {
  let p = planes.plane[0];
  if (z == 0u) {
    return i32(ref_sample(p, x, u32(y)));
  }
  return i32(dist_sample(p, x, u32(y)));
}

// Scale 0: pixels (8 to 16 bits) minus the mid level (lo) and with rounding (hi), int16.
@compute @workgroup_size(8, 8)
fn dwt_vertical0(@builtin(global_invocation_id) gid: vec3u) {
  if (gid.x >= params.in_w || gid.y >= params.h) {
    return;
  }
  let r = dwt_taps(2 * i32(gid.y), i32(params.in_h));
  let z = gid.z;
  let s = vec4i(dwt_pixel(z, gid.x, r.x), dwt_pixel(z, gid.x, r.y), dwt_pixel(z, gid.x, r.z), dwt_pixel(z, gid.x, r.w));
  dwt_store(z, gid.y, gid.x, dwt_lo16(s, -bitcast<i32>(params.centre), params.v_shift), dwt_hi16(s, bitcast<i32>(params.v_round), params.v_shift));
}

// Scales 1..3: the previous scale's a bands, int64 sums stored as int32.
@compute @workgroup_size(8, 8)
fn dwt_vertical123(@builtin(global_invocation_id) gid: vec3u) {
  if (gid.x >= params.in_w || gid.y >= params.h) {
    return;
  }
  let r = dwt_taps(2 * i32(gid.y), i32(params.in_h));
  let base = select(params.src_ref, params.src_dis, gid.z == 1u) + gid.x;
  let w = params.in_w;
  let s = vec4i(pyr[base + u32(r.x) * w], pyr[base + u32(r.y) * w], pyr[base + u32(r.z) * w], pyr[base + u32(r.w) * w]);
  dwt_store(gid.z, gid.y, gid.x, dwt_lo_wide(s, params.v_round, params.v_shift), dwt_hi_wide(s, params.v_round, params.v_shift));
}

// ---- horizontal pass: one thread per output sample

// The taps of output column j: unmirrored at an overshooting last column (may pass in_w).
fn dwt_columns(j: i32) -> vec4i {
  if (params.overshoot != 0u && j == i32(params.w) - 1) {
    return vec4i(2 * j - 1, 2 * j, 2 * j + 1, 2 * j + 2);
  }
  return dwt_taps(2 * j, i32(params.in_w));
}

// What a hi row reads past its end (e = 0, 1): see the top of this file.
fn dwt_past_hi(z: u32, i: u32, e: u32, scale0: bool) -> i32 {
  if (scale0) {
    // an int32 of the coarser scale read as two int16
    let old = tmp[tmp_index(params.stale_tmp_off, params.stale_tmp_rows, params.stale_tmp_w, params.stale_seg, params.stale_tmp_rows - 1u, params.stale_col)];
    return select(int16_of(old), old >> 16u, e == 1u);
  }
  if (z == 0u) {
    return tmp[tmp_index(params.tmp_off, params.h, params.in_w, 2u, i, e)]; // the distorted lo row
  }
  if (params.has_prev != 0u) {
    return tmp[tmp_index(params.prev_tmp_off, params.prev_tmp_rows, params.prev_tmp_w, params.prev_seg, params.prev_tmp_rows - 1u, params.prev_col + e)];
  }
  return 0;
}

// Temporary (lo, hi) of picture z at row i, column k (k may pass the row by 1 or 2).
fn dwt_tmp(z: u32, i: u32, k: i32, scale0: bool) -> vec2i {
  let w = params.in_w;
  if (u32(k) < w) {
    return vec2i(tmp[tmp_index(params.tmp_off, params.h, w, 2u * z, i, u32(k))], tmp[tmp_index(params.tmp_off, params.h, w, 2u * z + 1u, i, u32(k))]);
  }
  let e = u32(k) - w;
  // lo runs into this picture's hi row
  return vec2i(tmp[tmp_index(params.tmp_off, params.h, w, 2u * z + 1u, i, e)], dwt_past_hi(z, i, e, scale0));
}

fn dwt_horizontal(gid: vec3u, scale0: bool) {
  if (gid.x >= params.w || gid.y >= params.h) {
    return;
  }
  let z = gid.z;
  let i = gid.y;
  let c = dwt_columns(i32(gid.x));
  let t0 = dwt_tmp(z, i, c.x, scale0);
  let t1 = dwt_tmp(z, i, c.y, scale0);
  let t2 = dwt_tmp(z, i, c.z, scale0);
  let t3 = dwt_tmp(z, i, c.w, scale0);
  let lo = vec4i(t0.x, t1.x, t2.x, t3.x);
  let hi = vec4i(t0.y, t1.y, t2.y, t3.y);
  let out = gid.y * params.w + gid.x;
  let band = z * 3u * params.band_cap + out;
  let a_at = select(params.dst_ref, params.dst_dis, z == 1u) + out;
  if (scale0) {
    pyr[a_at] = dwt_lo16(lo, 32768, 16u);
    if (params.low_only != 0u) {
      return;
    }
    det[band] = dwt_lo16(hi, 32768, 16u);
    det[band + params.band_cap] = dwt_hi16(lo, 32768, 16u);
    det[band + 2u * params.band_cap] = dwt_hi16(hi, 32768, 16u);
  } else {
    pyr[a_at] = dwt_lo_wide(lo, params.h_round, params.h_shift);
    det[band] = dwt_lo_wide(hi, params.h_round, params.h_shift);
    det[band + params.band_cap] = dwt_hi_wide(lo, params.h_round, params.h_shift);
    det[band + 2u * params.band_cap] = dwt_hi_wide(hi, params.h_round, params.h_shift);
  }
}

@compute @workgroup_size(8, 8)
fn dwt_horizontal0(@builtin(global_invocation_id) gid: vec3u) {
  dwt_horizontal(gid, true);
}

@compute @workgroup_size(8, 8)
fn dwt_horizontal123(@builtin(global_invocation_id) gid: vec3u) {
  dwt_horizontal(gid, false);
}
