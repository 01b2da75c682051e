// speed_chroma's pictures: picture_copy of the U or V plane, (float)sample / scale - 128.
// Image z: plane 1 + z / 2, reference when z is even.

fn raw_sample(img: u32, x: u32, y: u32) -> f32 {
  let p = planes.plane[1u + img / 2u];
  let s = select(dist_sample(p, x, y), ref_sample(p, x, y), img % 2u == 0u);
  return f32(s) * params.sample_scale - 128.0;
}
