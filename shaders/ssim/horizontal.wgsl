// The horizontal pass of SSIM's 11-tap Gaussian window (GAUSSIAN, generated) for the five
// maps: reference, distorted, their squares and their product (each square or product
// rounded to f32 first, as libvmaf's float arrays hold them), each out_width × height.
// Needs ssim/params.wgsl.

@group(0) @binding(4) var<storage, read> src_ref: array<f32>;
@group(0) @binding(5) var<storage, read> src_cmp: array<f32>;
@group(0) @binding(6) var<storage, read_write> map_ref: array<f32>;
@group(0) @binding(7) var<storage, read_write> map_cmp: array<f32>;
@group(0) @binding(8) var<storage, read_write> map_ref_sq: array<f32>;
@group(0) @binding(9) var<storage, read_write> map_cmp_sq: array<f32>;
@group(0) @binding(10) var<storage, read_write> map_product: array<f32>;

@compute @workgroup_size(64, 4)
fn main(@builtin(global_invocation_id) id: vec3u) {
  if (id.x >= params.out_width || id.y >= params.height) {
    return;
  }
  let base = id.y * params.width + id.x;
  var m1 = vec2f(0.0);
  var m2 = vec2f(0.0);
  var s11 = vec2f(0.0);
  var s22 = vec2f(0.0);
  var s12 = vec2f(0.0);
  for (var u = 0u; u < 11u; u++) {
    let a = src_ref[base + u];
    let b = src_cmp[base + u];
    let t = GAUSSIAN[u];
    m1 = pair_add(m1, rounded_mul(a, t));
    m2 = pair_add(m2, rounded_mul(b, t));
    s11 = pair_add(s11, rounded_mul(rounded_mul(a, a), t));
    s22 = pair_add(s22, rounded_mul(rounded_mul(b, b), t));
    s12 = pair_add(s12, rounded_mul(rounded_mul(a, b), t));
  }
  let o = id.y * params.out_width + id.x;
  map_ref[o] = pair_value(m1);
  map_cmp[o] = pair_value(m2);
  map_ref_sq[o] = pair_value(s11);
  map_cmp_sq[o] = pair_value(s22);
  map_product[o] = pair_value(s12);
}
