// vif's input at scale 0: the luma plane of frame z of the uploaded batch (needs
// common/frame.wgsl and vif/batch.wgsl).

fn vif_ref(z: u32, x: u32, y: u32) -> u32 {
  var p = planes.plane[0];
  p.offset += z * batch.ref_stride;
  return ref_sample(p, x, y);
}

fn vif_dis(z: u32, x: u32, y: u32) -> u32 {
  var p = planes.plane[0];
  p.offset += z * batch.dist_stride;
  return dist_sample(p, x, y);
}
