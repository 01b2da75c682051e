// vif's input at scales 1 to 3: the previous decimation's 16-bit samples, one per word,
// params.width to a row, frame z's plane after z planes of params.width x params.height
// (the kernel's params struct starts with width and height).

@group(0) @binding(0) var<storage, read> scale_ref: array<u32>;
@group(0) @binding(1) var<storage, read> scale_dis: array<u32>;

fn vif_ref(z: u32, x: u32, y: u32) -> u32 {
  return scale_ref[(z * params.height + y) * params.width + x];
}

fn vif_dis(z: u32, x: u32, y: u32) -> u32 {
  return scale_dis[(z * params.height + y) * params.width + x];
}
