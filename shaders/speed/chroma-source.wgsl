// speed_chroma's pictures: picture_copy of the U or V plane, (float)sample / scale - 128.
// Image z: plane 1 + z / 2, reference when z is even (uniform over a workgroup, so the
// branch reads one frame, where a select would read both).

fn raw_sample(img: u32, x: u32, y: u32) -> f32 {
  let p = planes.plane[1u + img / 2u];
  var s: u32;
  if (img % 2u == 0u) {
    s = ref_sample(p, x, y);
  } else {
    s = dist_sample(p, x, y);
  }
  return f32(s) * params.sample_scale - 128.0;
}
