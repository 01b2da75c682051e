// MS-SSIM's halving: libvmaf's 9×9 9/7-wavelet low-pass (LPF_9X9, generated) around source
// (2x, 2y), mirrored at the borders, 81 products rounded to f32 and summed as pairs.
// Needs ssim/params.wgsl and ssim/decimate-io.wgsl.

@compute @workgroup_size(16, 16)
fn main(@builtin(global_invocation_id) id: vec3u) {
  if (id.x >= params.out_width || id.y >= params.out_height) {
    return;
  }
  let w = i32(params.width);
  let h = i32(params.height);
  let cx = 2 * i32(id.x) - 4;
  let cy = 2 * i32(id.y) - 4;
  var a = vec2f(0.0);
  var b = vec2f(0.0);
  for (var v = 0; v < 9; v++) {
    let row = mirror(cy + v, h) * w;
    for (var u = 0; u < 9; u++) {
      let i = u32(row + mirror(cx + u, w));
      let t = LPF_9X9[v * 9 + u];
      a = pair_add(a, rounded_mul(src_ref[i], t));
      b = pair_add(b, rounded_mul(src_cmp[i], t));
    }
  }
  let o = id.y * params.out_width + id.x;
  dst_ref[o] = pair_value(a);
  dst_cmp[o] = pair_value(b);
}
