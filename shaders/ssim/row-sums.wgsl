// Sums one scale's row sums (params.out_height rows from params.first_row, as the vertical
// pass wrote them) into the frame's result words: 8 words at params.scale · 8, (hi, lo) of
// Σ l·c·s, Σ l, Σ c, Σ s, still as f32 pairs. One workgroup. Needs ssim/params.wgsl and
// ssim/workgroup-sums.wgsl.

@group(0) @binding(11) var<storage, read> row_sums: array<u32>;
@group(0) @binding(12) var<storage, read_write> sums: array<u32>;

fn row_pair(o: u32) -> vec2f {
  return vec2f(bitcast<f32>(row_sums[o]), bitcast<f32>(row_sums[o + 1u]));
}

@compute @workgroup_size(WG)
fn main(@builtin(local_invocation_index) li: u32) {
  var acc = array<vec2f, 4>(vec2f(0.0), vec2f(0.0), vec2f(0.0), vec2f(0.0));
  for (var r = li; r < params.out_height; r += WG) {
    let o = (params.first_row + r) * 8u;
    for (var k = 0u; k < 4u; k++) {
      acc[k] = pair_add_pair(acc[k], row_pair(o + 2u * k));
    }
  }
  workgroup_sums(li, acc);
  if (li == 0u) {
    let o = params.scale * 8u;
    for (var k = 0u; k < 4u; k++) {
      sums[o + 2u * k] = bitcast<u32>(partial[0][k].x);
      sums[o + 2u * k + 1u] = bitcast<u32>(partial[0][k].y);
    }
  }
}
