// libvmaf's picture_copy of the luma plane: samples as f32, scaled to the 8-bit range
// (params.tap = 1, 1/4, 1/16 or 1/256: exact). Needs common/frame.wgsl and ssim/params.wgsl.

@group(0) @binding(4) var<storage, read_write> luma_ref: array<f32>;
@group(0) @binding(5) var<storage, read_write> luma_cmp: array<f32>;

@compute @workgroup_size(16, 16)
fn main(@builtin(global_invocation_id) id: vec3u) {
  let p = planes.plane[0];
  if (id.x >= p.width || id.y >= p.height) {
    return;
  }
  let i = id.y * p.width + id.x;
  luma_ref[i] = f32(ref_sample(p, id.x, id.y)) * params.tap;
  luma_cmp[i] = f32(dist_sample(p, id.x, id.y)) * params.tap;
}
