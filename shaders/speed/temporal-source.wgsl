// speed_temporal's pictures: the previous frame's luma minus this frame's (as floats, the
// -128 offsets cancel exactly). Image 0 of a frame: reference; image 1: distorted, minus
// this frame's reference instead with speed_use_ref_diff. The previous frame of the
// batch's first frame is the stage's copy; the others' is the frame before in the batch.

@group(0) @binding(7) var<storage, read> prev_ref: array<u32>;
@group(0) @binding(8) var<storage, read> prev_dist: array<u32>;

fn previous_ref_sample(frame: u32, p: Plane, x: u32, y: u32) -> u32 {
  if (frame == 0u) {
    let b = sample_byte_index(p, x, y);
    return sample_in_word(prev_ref[b >> 2u], b);
  }
  return batch_ref_sample(frame - 1u, p, x, y);
}

fn previous_dist_sample(frame: u32, p: Plane, x: u32, y: u32) -> u32 {
  if (frame == 0u) {
    let b = sample_byte_index(p, x, y);
    return sample_in_word(prev_dist[b >> 2u], b);
  }
  return batch_dist_sample(frame - 1u, p, x, y);
}

fn raw_sample(img: u32, x: u32, y: u32) -> f32 {
  let frame = frame_of(img);
  let p = planes.plane[0];
  var prev: u32;
  var cur: u32;
  if (image_in_frame(img) == 0u) {
    prev = previous_ref_sample(frame, p, x, y);
    cur = batch_ref_sample(frame, p, x, y);
  } else {
    prev = previous_dist_sample(frame, p, x, y);
    // a branch, not a select, so that only one frame is read
    if (params.use_ref_diff == 1u) {
      cur = batch_ref_sample(frame, p, x, y);
    } else {
      cur = batch_dist_sample(frame, p, x, y);
    }
  }
  return f32(i32(prev) - i32(cur)) * params.sample_scale;
}
