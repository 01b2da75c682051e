// The four f32-pair sums of a workgroup, as vertical.wgsl and row-sums.wgsl both form them:
// each thread's partial sums into workgroup memory, then a tree over halves (pair sums, in
// this order); afterwards partial[0] holds the workgroup's sums. Call from uniform control
// flow (it has barriers). Needs ssim/params.wgsl.

const WG: u32 = 256u;
var<workgroup> partial: array<array<vec2f, 4>, WG>;

fn workgroup_sums(li: u32, acc: array<vec2f, 4>) {
  partial[li] = acc;
  workgroupBarrier();
  for (var n = WG / 2u; n > 0u; n = n >> 1u) {
    if (li < n) {
      for (var k = 0; k < 4; k++) {
        partial[li][k] = pair_add_pair(partial[li][k], partial[li + n][k]);
      }
    }
    workgroupBarrier();
  }
}
