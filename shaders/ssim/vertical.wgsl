// The vertical pass of SSIM's window, the per-window luminance l, contrast c and structure s
// (libvmaf's default _iqa_ssim), and their sums over one row of the SSIM map: one workgroup
// per row, sums as f32 pairs. Writes 8 words per row at row params.first_row + y:
// (hi, lo) of Σ l·c·s, Σ l, Σ c, Σ s. C1..C3 and GAUSSIAN are generated. Needs
// ssim/params.wgsl and ssim/workgroup-sums.wgsl.

@group(0) @binding(6) var<storage, read> map_ref: array<f32>;
@group(0) @binding(7) var<storage, read> map_cmp: array<f32>;
@group(0) @binding(8) var<storage, read> map_ref_sq: array<f32>;
@group(0) @binding(9) var<storage, read> map_cmp_sq: array<f32>;
@group(0) @binding(10) var<storage, read> map_product: array<f32>;
@group(0) @binding(11) var<storage, read_write> row_sums: array<u32>;

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_index) li: u32) {
  let y = wg.x;
  var acc = array<vec2f, 4>(vec2f(0.0), vec2f(0.0), vec2f(0.0), vec2f(0.0));
  for (var x = li; x < params.out_width; x += WG) {
    var m1 = vec2f(0.0);
    var m2 = vec2f(0.0);
    var s11 = vec2f(0.0);
    var s22 = vec2f(0.0);
    var s12 = vec2f(0.0);
    for (var v = 0u; v < 11u; v++) {
      let i = (y + v) * params.out_width + x;
      let t = GAUSSIAN[v];
      m1 = pair_add(m1, rounded_mul(map_ref[i], t));
      m2 = pair_add(m2, rounded_mul(map_cmp[i], t));
      s11 = pair_add(s11, rounded_mul(map_ref_sq[i], t));
      s22 = pair_add(s22, rounded_mul(map_cmp_sq[i], t));
      s12 = pair_add(s12, rounded_mul(map_product[i], t));
    }
    let mu1 = pair_value(m1);
    let mu2 = pair_value(m2);
    let mu11 = rounded_mul(mu1, mu1);
    let mu22 = rounded_mul(mu2, mu2);
    let var1 = max(pair_value(s11) - mu11, 0.0);
    let var2 = max(pair_value(s22) - mu22, 0.0);
    let cov = pair_value(s12) - rounded_mul(mu1, mu2);
    let sd12 = sqrt(rounded_mul(var1, var2));
    // libvmaf divides these two in double; f32 costs about 1e-7 relative per window
    let l = (2.0 * mu1 * mu2 + C1) / ((mu11 + mu22) + C1);
    let c = (2.0 * sd12 + C2) / ((var1 + var2) + C2);
    // identical flat windows: a covariance just below 0 from rounding must not pull s below 1
    let cov_clamped = select(cov, 0.0, cov < 0.0 && sd12 <= 0.0);
    let s = (cov_clamped + C3) / (sd12 + C3);
    acc[0] = pair_add(acc[0], l * c * s);
    acc[1] = pair_add(acc[1], l);
    acc[2] = pair_add(acc[2], c);
    acc[3] = pair_add(acc[3], s);
  }
  workgroup_sums(li, acc);
  if (li == 0u) {
    let o = (params.first_row + y) * 8u;
    for (var k = 0u; k < 4u; k++) {
      row_sums[o + 2u * k] = bitcast<u32>(partial[0][k].x);
      row_sums[o + 2u * k + 1u] = bitcast<u32>(partial[0][k].y);
    }
  }
}
