// speed_chroma's pictures: picture_copy of the U or V plane, (float)sample / scale - 128.
// Image z of a frame: plane 1 + z / 2, reference when z is even (uniform over a workgroup,
// so the branch reads one frame, where a select would read both).

fn raw_sample(img: u32, x: u32, y: u32) -> f32 {
  let frame = frame_of(img);
  let z = image_in_frame(img);
  let p = planes.plane[1u + z / 2u];
  var s: u32;
  if (z % 2u == 0u) {
    s = batch_ref_sample(frame, p, x, y);
  } else {
    s = batch_dist_sample(frame, p, x, y);
  }
  return f32(s) * params.sample_scale - 128.0;
}
