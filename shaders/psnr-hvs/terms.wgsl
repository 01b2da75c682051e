// psnr_hvs, kernel 1: every 8x8 block's 64 terms ((masked DCT error · CSF)², libvmaf's
// float steps, bit for bit), and per block and per group of GROUP_BLOCKS consecutive
// blocks what they add to a running float sum in each binade that sum may be in
// (the records float-sum.wgsl jumps with).
// One invocation per block, one workgroup per group, z = plane.
// Needs common/frame.wgsl, params.wgsl, speed/exact-f32.wgsl (mul, div_rn, sqrt_rn), od-dct.wgsl.

@group(0) @binding(4) var<storage, read_write> terms: array<f32>;
@group(0) @binding(5) var<storage, read_write> records: array<u32>;

var<workgroup> group_max: atomic<u32>;
var<workgroup> group_steps: array<atomic<u32>, BINADES>;
var<workgroup> group_ties: atomic<u32>;
var<workgroup> group_nan: atomic<u32>;

const NAN_MASKING: f32 = -1.0;

// Quadrant (4x4 sub-block) of sample (i, j), numbered as libvmaf does.
fn quadrant(i: u32, j: u32) -> u32 {
  return ((i & 4u) >> 2u) + ((j & 4u) >> 1u);
}

// The block's masking strength, as plane-error.ts's blockMasking: float steps unfused,
// divisions and the square root correctly rounded. `block` holds samples on entry and
// DCT coefficients on return. NAN_MASKING where libvmaf's is NaN: the square root of a
// negative energy (wrapped products, samples far beyond the bit depth); GPUs need not keep NaN.
fn block_masking(block: ptr<function, array<i32, 64>>, p: u32) -> f32 {
  var total = 0;
  var sums = vec4i(0);
  for (var i = 0u; i < 8u; i++) {
    for (var j = 0u; j < 8u; j++) {
      let v = (*block)[i * 8u + j];
      total += v;
      sums[quadrant(i, j)] += v;
    }
  }
  // exact: sums of at most 64 12-bit samples, scaled by powers of two
  let mean = f32(total) * 0.015625;
  let means = vec4f(sums) * 0.0625;
  var variance = 0.0;
  var vars = vec4f(0.0);
  for (var i = 0u; i < 8u; i++) {
    for (var j = 0u; j < 8u; j++) {
      let v = f32((*block)[i * 8u + j]);
      let d = v - mean;
      variance = variance + mul(d, d);
      let q = quadrant(i, j);
      let dq = v - means[q];
      vars[q] = vars[q] + mul(dq, dq);
    }
  }
  variance = mul(variance, params.global_var_scale);
  let v0 = mul(vars.x, params.quadrant_var_scale);
  let v1 = mul(vars.y, params.quadrant_var_scale);
  let v2 = mul(vars.z, params.quadrant_var_scale);
  let v3 = mul(vars.w, params.quadrant_var_scale);
  if (variance > 0.0) {
    variance = div_rn(((v0 + v1) + v2) + v3, variance);
  }
  fdct8x8(block);
  var energy = 0.0;
  for (var k = 1u; k < 64u; k++) {
    let c = (*block)[k];
    energy = energy + mul(int_to_float(c * c), mask_of(p, k));
  }
  let product = mul(energy, variance);
  if (product < 0.0) {
    return NAN_MASKING;
  }
  return sqrt_rn(product) * 0.03125;
}

// C's float(c * c) for libvmaf's int product, which wraps (as WGSL's i32 does) for samples
// beyond the bit depth: the conversion rounded to nearest even, as the sum of two exact
// halves in one correctly rounded add.
fn int_to_float(v: i32) -> f32 {
  return f32(v & i32(0xffff0000u)) + f32(v & 0xffff);
}

// A non-negative float t = m · 2^(e − 23) as (m, e); m = 0 for t = 0 (subnormals fit too).
fn float_parts(t: f32) -> vec2i {
  let bits = bitcast<u32>(t);
  let field = bits >> 23u;
  if (field == 0u) {
    return vec2i(i32(bits), -126); // 0, or subnormal
  }
  return vec2i(i32((bits & 0x7fffffu) | 0x800000u), i32(field) - 127);
}

fn block_largest(t: ptr<function, array<f32, 64>>) -> f32 {
  var largest = 0.0;
  for (var k = 0u; k < 64u; k++) {
    largest = max(largest, (*t)[k]);
  }
  return largest;
}

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_index) li: u32) {
  let p = wg.z;
  let geometry = params.plane[p];
  let b = wg.x * GROUP_BLOCKS + li;
  let valid = b < geometry.blocks;
  var t: array<f32, 64>;
  if (valid) {
    let x0 = (b % geometry.blocks_x) * 7u;
    let y0 = (b / geometry.blocks_x) * 7u;
    let plane = planes.plane[p];
    var r: array<i32, 64>;
    var d: array<i32, 64>;
    for (var i = 0u; i < 8u; i++) {
      for (var j = 0u; j < 8u; j++) {
        r[i * 8u + j] = i32(ref_sample(plane, x0 + j, y0 + i));
        d[i * 8u + j] = i32(dist_sample(plane, x0 + j, y0 + i));
      }
    }
    let ref_mask = block_masking(&r, p);
    let dist_mask = block_masking(&d, p);
    // C's `dist > ref ? dist : ref`: a NaN distorted masking loses, a NaN reference one
    // is kept and makes the plane's sum NaN (flagged in the group record).
    let masking = select(ref_mask, dist_mask, dist_mask > ref_mask && ref_mask != NAN_MASKING);
    if (ref_mask == NAN_MASKING) {
      atomicOr(&group_nan, 1u);
    }
    let at = geometry.terms_at + b * 64u;
    for (var k = 0u; k < 64u; k++) {
      var err = f32(abs(r[k] - d[k]));
      if (k != 0u) {
        let threshold = div_rn(masking, mask_of(p, k));
        err = select(err - threshold, 0.0, err < threshold);
      }
      let w = mul(err, csf_of(p, k));
      t[k] = mul(w, w);
      terms[at + k] = t[k];
    }
  }
  let largest = block_largest(&t); // 0 past the plane's last block
  atomicMax(&group_max, bitcast<u32>(largest)); // non-negative floats order as their bits
  // The block's record. In binade e = E + 1 + j (E its largest term's) the ulp is
  // u = 2^(e − 23), and a term t = m · 2^(te − 23) adds round(t / u) = round(m / 2^(e − te))
  // ulps; ties are flagged (they round to even, which depends on the sum).
  let top = float_parts(largest);
  var steps: array<u32, BINADES>;
  var ties = 0u;
  if (top.x != 0) {
    for (var k = 0u; k < 64u; k++) {
      let term = float_parts(t[k]);
      if (term.x == 0) {
        continue;
      }
      let m = u32(term.x);
      let first = u32(top.y + 1 - term.y); // >= 1
      for (var j = 0u; j < BINADES; j++) {
        let shift = first + j;
        if (shift >= 25u) {
          break; // t < u / 2 here and above: adds nothing
        }
        let half = 1u << (shift - 1u);
        let rest = m & ((half << 1u) - 1u);
        var q = m >> shift;
        if (rest > half) {
          q += 1u;
        } else if (rest == half) {
          ties |= 1u << j;
        }
        steps[j] += q; // < 64 · 2^23
      }
    }
  }
  if (valid) {
    let at = block_record(geometry, b);
    records[at] = select(u32(top.y), EMPTY_RECORD, top.x == 0);
    records[at + RECORD_TIES] = ties;
    for (var j = 0u; j < BINADES; j++) {
      records[at + RECORD_STEPS + j] = steps[j];
    }
  }
  workgroupBarrier();
  // The group's record: the same binade is j' = j + (group E − block E) in a block's record,
  // and a block adds nothing (and has no tie) in binades past its record's.
  let group_top = float_parts(bitcast<f32>(atomicLoad(&group_max)));
  if (top.x != 0) {
    let delta = u32(group_top.y - top.y);
    for (var j = 0u; j + delta < BINADES; j++) {
      // past 2^24 ulps a group is refused anyway: saturate there
      atomicAdd(&group_steps[j], min(steps[j + delta], 0x1000000u));
    }
    if (delta < BINADES) {
      atomicOr(&group_ties, ties >> delta);
    }
  }
  workgroupBarrier();
  if (wg.x * GROUP_BLOCKS < geometry.blocks) {
    let at = (geometry.groups_at + wg.x) * RECORD_WORDS;
    if (li < BINADES) {
      records[at + RECORD_STEPS + li] = atomicLoad(&group_steps[li]);
    } else if (li == BINADES) {
      records[at] = select(u32(group_top.y), EMPTY_RECORD, group_top.x == 0);
    } else if (li == BINADES + 1u) {
      records[at + RECORD_TIES] = atomicLoad(&group_ties);
    } else if (li == BINADES + 2u) {
      records[at + RECORD_NAN] = atomicLoad(&group_nan);
    }
  }
}
