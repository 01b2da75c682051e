// est_params' step 1 on the GPU: the means of the 25 shifted copies of each detail picture
// (float sums in libvmaf's order, one thread each) and the 325 distinct covariance sums,
// accumulated as float pairs (about 48 bits) so that rounding them to float agrees with
// libvmaf's double sums. Needs speed/exact-f32.wgsl, speed/params.wgsl and the bindings
// of speed/detail.wgsl.

@compute @workgroup_size(32)
fn means(@builtin(local_invocation_index) k: u32, @builtin(workgroup_id) wg: vec3u) {
  if (k >= ELEMENTS) {
    return;
  }
  let img = wg.z;
  let at = work_detail(img) + (k / BLOCK) * params.dec_w + k % BLOCK;
  var sum = 0.0;
  for (var y = 0u; y < params.sub_h; y++) {
    for (var x = 0u; x < params.sub_w; x++) {
      sum = sum + work[at + y * params.dec_w + x];
    }
  }
  work[work_means(img) + k] = div_rn(sum, f32(params.sub_w * params.sub_h));
}

const WG: u32 = 64u;
var<workgroup> partial: array<vec2f, WG>;

// Workgroup e: entry (a, b), b <= a, numbered row by row of the lower triangle.
@compute @workgroup_size(WG)
fn covariance(@builtin(local_invocation_index) li: u32, @builtin(workgroup_id) wg: vec3u) {
  let e = wg.x;
  var a = 0u;
  while ((a + 1u) * (a + 2u) / 2u <= e) {
    a++;
  }
  let b = e - a * (a + 1u) / 2u;
  let img = wg.z;
  let at_a = work_detail(img) + (a / BLOCK) * params.dec_w + a % BLOCK;
  let at_b = work_detail(img) + (b / BLOCK) * params.dec_w + b % BLOCK;
  let mean_a = work[work_means(img) + a];
  let mean_b = work[work_means(img) + b];
  let n = params.sub_w * params.sub_h;
  var acc = vec2f(0.0, 0.0);
  for (var p = li; p < n; p += WG) {
    let offset = (p / params.sub_w) * params.dec_w + p % params.sub_w;
    // x - mean, exact as a pair, like libvmaf's double subtraction
    let ca = two_sum(work[at_a + offset], -mean_a);
    let cb = two_sum(work[at_b + offset], -mean_b);
    acc = dd_add(acc, dd_mul(ca, cb));
  }
  partial[li] = acc;
  workgroupBarrier();
  for (var s = WG / 2u; s > 0u; s = s >> 1u) {
    if (li < s) {
      partial[li] = dd_add(partial[li], partial[li + s]);
    }
    workgroupBarrier();
  }
  if (li == 0u) {
    work[work_pairs(img) + 2u * e] = partial[0].x;
    work[work_pairs(img) + 2u * e + 1u] = partial[0].y;
  }
}
