// speed_temporal's pictures: the previous frame's luma minus this frame's (as floats, the
// -128 offsets cancel exactly). Image 0: reference; image 1: distorted, minus this frame's
// reference instead with speed_use_ref_diff. The previous frames are the stage's copies.

@group(0) @binding(7) var<storage, read> prev_ref: array<u32>;
@group(0) @binding(8) var<storage, read> prev_dist: array<u32>;

fn raw_sample(img: u32, x: u32, y: u32) -> f32 {
  let p = planes.plane[0];
  let b = sample_byte_index(p, x, y);
  var prev: u32;
  var cur: u32;
  if (img == 0u) {
    prev = sample_in_word(prev_ref[b >> 2u], b);
    cur = ref_sample(p, x, y);
  } else {
    prev = sample_in_word(prev_dist[b >> 2u], b);
    // a branch, not a select, so that only one frame is read
    if (params.use_ref_diff == 1u) {
      cur = ref_sample(p, x, y);
    } else {
      cur = dist_sample(p, x, y);
    }
  }
  return f32(i32(prev) - i32(cur)) * params.sample_scale;
}
