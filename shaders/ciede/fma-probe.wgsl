// Whether this GPU's fma() rounds once, tried through df64.wgsl's own two_prod (with
// FUSED_FMA = true): operands = [a, b, 0] with a·b not an f32; fused = its error != 0.
@group(0) @binding(0) var<storage, read> operands: array<f32, 3>;
@group(0) @binding(1) var<storage, read_write> fused: array<u32, 1>;

fn df_zero() -> u32 {
  return bitcast<u32>(operands[2]);
}

@compute @workgroup_size(1)
fn main() {
  fused[0] = select(0u, 1u, two_prod(operands[0], operands[1]).y != 0.0);
}
