// get_speed_score on the GPU, one workgroup per pair of images (reference 2p, distorted
// 2p + 1): per block |E_ref log2(w_ref) - E_dis log2(w_dis)| (log2 in float pairs, each
// product rounded to float as libvmaf stores it), then their float sum in block order.
// Needs speed/exact-f32.wgsl, speed/log2.wgsl, speed/params.wgsl and the bindings of
// speed/detail.wgsl.

// per pair: the score's bits, then 1 when either picture's covariance was singular
@group(0) @binding(9) var<storage, read_write> scores: array<u32>;

// the arguments of the two log2 weights, per speed_weight_var_mode
fn weights(r: f32, d: f32) -> array<vec2f, 2> {
  let one = vec2f(1.0, 0.0);
  let own_r = vec2f(1.0 + r, 0.0);
  let own_d = vec2f(1.0 + d, 0.0);
  let mean = dd_add(one, vec2f((r + d) * 0.5, 0.0));
  switch params.weight_var_mode {
    case 1u: {
      return array(own_r, own_r);
    }
    case 2u: {
      return array(own_d, own_d);
    }
    case 3u: {
      return array(mean, mean);
    }
    case 4u: {
      return array(own_r, mean);
    }
    case 5u: {
      return array(own_r, dd_add(one, dd_add(two_prod(0.75, r), vec2f(0.25 * d, 0.0))));
    }
    case 6u: {
      return array(own_r, dd_add(one, dd_add(vec2f(0.25 * r, 0.0), two_prod(0.75, d))));
    }
    default: {
      return array(own_r, own_d);
    }
  }
}

@compute @workgroup_size(256)
fn score(@builtin(local_invocation_index) li: u32, @builtin(workgroup_id) wg: vec3u) {
  let pair = wg.z;
  let ref_img = 2u * pair;
  let dis_img = ref_img + 1u;
  let base = params.base_entropy;
  for (var b = li; b < blocks(); b += 256u) {
    let er = work[work_entropies(ref_img) + b];
    let ed = work[work_entropies(dis_img) + b];
    var term = 0.0;
    if (!(er < base && ed < base)) {
      let w = weights(work[work_variances(ref_img) + b], work[work_variances(dis_img) + b]);
      let spatial_ref = dd_mul(log2_dd(w[0]), vec2f(er, 0.0)).x;
      let spatial_dis = dd_mul(log2_dd(w[1]), vec2f(ed, 0.0)).x;
      term = abs(spatial_ref - spatial_dis);
    }
    work[work_terms(ref_img) + b] = term;
  }
  workgroupBarrier();
  if (li == 0u) {
    let singular_ref = work[work_singular(ref_img)] != 0.0;
    let singular_dis = work[work_singular(dis_img)] != 0.0;
    var sum = 0.0;
    if (singular_ref == singular_dis) {
      for (var b = 0u; b < blocks(); b++) {
        sum = sum + work[work_terms(ref_img) + b];
      }
      sum = div_rn(sum, f32(blocks()));
    }
    scores[2u * pair] = bitcast<u32>(sum);
    scores[2u * pair + 1u] = select(0u, 1u, singular_ref || singular_dis);
  }
}
