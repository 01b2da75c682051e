// est_params' steps 5-9 and get_speed_score's per-block term on the GPU, spread over the
// blocks: one thread per block and picture of a pair (reference 2p, distorted 2p + 1)
// solves K x = y for the block (Q' y, then back substitution with R), takes the variance
// S = sum of x y / 25 and the entropy over K's eigenvalues; the reference's thread then
// writes |E_ref log2(w_ref) - E_dis log2(w_dis)| (0 where both entropies are below the
// noise floor's). Float operations in libvmaf's order (exact-f32.wgsl; log2 and the
// products with it in float pairs). Needs speed/exact-f32.wgsl, speed/log2.wgsl,
// speed/params.wgsl and the bindings of speed/detail.wgsl.

const BLOCKS_PER_GROUP: u32 = 32u;

var<workgroup> q_of: array<array<f32, 625>, 2>;
var<workgroup> r_of: array<array<f32, 625>, 2>;
var<workgroup> eig_of: array<array<f32, 25>, 2>;
var<workgroup> block_variance: array<array<f32, BLOCKS_PER_GROUP>, 2>;
var<workgroup> block_entropy: array<array<f32, BLOCKS_PER_GROUP>, 2>;

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

@compute @workgroup_size(64)
fn block_terms(@builtin(local_invocation_index) li: u32, @builtin(workgroup_id) wg: vec3u) {
  let side = li & 1u;
  let slot = li >> 1u;
  let ref_img = 2u * wg.z;
  let img = ref_img + side;
  for (var e = li; e < 2u * NN; e += 64u) {
    let s = e / NN;
    let i = e % NN;
    q_of[s][i] = work[work_q(ref_img + s) + i];
    r_of[s][i] = work[work_r(ref_img + s) + i];
  }
  if (li < 2u * ELEMENTS) {
    eig_of[li / ELEMENTS][li % ELEMENTS] = work[work_eigenvalues(ref_img + li / ELEMENTS) + li % ELEMENTS];
  }
  workgroupBarrier();
  let b = wg.x * BLOCKS_PER_GROUP + slot;
  let in_range = b < blocks();
  if (in_range) {
    let corner = work_detail(img) + (b / params.blocks_x) * BLOCK * params.dec_w + (b % params.blocks_x) * BLOCK;
    var y: array<f32, ELEMENTS>;
    for (var m = 0u; m < ELEMENTS; m++) {
      y[m] = work[corner + (m / BLOCK) * params.dec_w + m % BLOCK];
    }
    var x: array<f32, ELEMENTS>;
    if (solvable(img)) {
      var qy: array<f32, ELEMENTS>;
      for (var i = 0u; i < ELEMENTS; i++) {
        var acc = 0.0;
        for (var m = 0u; m < ELEMENTS; m++) {
          acc = acc + mul(q_of[side][i * ELEMENTS + m], y[m]);
        }
        qy[i] = acc;
      }
      for (var ii = 0u; ii < ELEMENTS; ii++) {
        let i = ELEMENTS - 1u - ii;
        var t = qy[i];
        for (var k = i + 1u; k < ELEMENTS; k++) {
          t = t - mul(x[k], r_of[side][i * ELEMENTS + k]);
        }
        x[i] = div_rn(t, r_of[side][i * ELEMENTS + i]);
      }
    }
    var variance = 0.0;
    for (var k = 0u; k < ELEMENTS; k++) {
      let z = div_rn(mul(x[k], y[k]), 25.0);
      variance = select(variance + z, z, k == 0u);
    }
    var entropy = 0.0;
    for (var k = 0u; k < ELEMENTS; k++) {
      let l = select(eig_of[side][k], 0.0, eig_of[side][k] < 0.0);
      let term = dd_add(log2_dd(vec2f(mul(l, variance) + params.sigma_nn, 0.0)), LOG2_2PIE);
      entropy = dd_add(term, vec2f(entropy, 0.0)).x;
    }
    block_variance[side][slot] = variance;
    block_entropy[side][slot] = entropy;
  }
  workgroupBarrier();
  if (in_range && side == 0u) {
    let er = block_entropy[0][slot];
    let ed = block_entropy[1][slot];
    let base = params.base_entropy;
    var term = 0.0;
    if (!(er < base && ed < base)) {
      let w = weights(block_variance[0][slot], block_variance[1][slot]);
      let spatial_ref = dd_mul(log2_dd(w[0]), vec2f(er, 0.0)).x;
      let spatial_dis = dd_mul(log2_dd(w[1]), vec2f(ed, 0.0)).x;
      term = abs(spatial_ref - spatial_dis);
    }
    work[work_terms(ref_img) + b] = term;
  }
}
