// float_ssim's downscaling by params.factor: a factor×factor box of float taps
// (params.tap = 1/factor²) around source (x·f, y·f), taps −f/2 … f/2 − (f even), mirrored at
// the borders; products rounded to f32, summed as pairs, rounded once. Needs ssim/params.wgsl
// and ssim/decimate-io.wgsl.

@compute @workgroup_size(16, 16)
fn main(@builtin(global_invocation_id) id: vec3u) {
  if (id.x >= params.out_width || id.y >= params.out_height) {
    return;
  }
  let f = i32(params.factor);
  let lo = -(f / 2);
  let hi = f / 2 - select(0, 1, f % 2 == 0);
  let w = i32(params.width);
  let h = i32(params.height);
  var a = vec2f(0.0);
  var b = vec2f(0.0);
  for (var v = lo; v <= hi; v++) {
    let row = mirror(i32(id.y) * f + v, h) * w;
    for (var u = lo; u <= hi; u++) {
      let i = u32(row + mirror(i32(id.x) * f + u, w));
      a = pair_add(a, rounded_mul(src_ref[i], params.tap));
      b = pair_add(b, rounded_mul(src_cmp[i], params.tap));
    }
  }
  let o = id.y * params.out_width + id.x;
  dst_ref[o] = pair_value(a);
  dst_cmp[o] = pair_value(b);
}
