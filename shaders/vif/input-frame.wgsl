// vif's input at scale 0: the luma plane of the uploaded frame (needs common/frame.wgsl).

fn vif_ref(x: u32, y: u32) -> u32 {
  return ref_sample(planes.plane[0], x, y);
}

fn vif_dis(x: u32, y: u32) -> u32 {
  return dist_sample(planes.plane[0], x, y);
}
