// cambi's top-k pooling without sorting. When more than k c-values are non-zero, the k-th
// largest, t, is found by a radix select on the float bits (non-negative floats order like
// their bits; non-zero c-values lie in [0.5, 2^14), bits 0x3f000000 to 0x46800000): 16,
// then 8, then 8 bits, each level a histogram of the values that share the bits found so
// far, then a walk down from the top bin. Then the values above t are counted and summed
// exactly; the host adds (k - count) copies of t. The first c-value result words say
// whether it is needed (count > k); otherwise every kernel here does nothing.
// Needs u64.wgsl and fixed-point.wgsl.
//
// Result words from result_base: 0 count, 1-2 sum, 3 count above t, 4-5 sum above t,
// 6 bits of t (found so far), 7 how many of the top k lie at or below the bits found.
//
// One dispatch serves several pictures and scales (workgroup row y: the y-th of them), so
// that the five scales' pooling costs seven dispatches, not 35.

struct PoolParams {
  n: u32,
  k: u32,
  result_base: u32,
  hist_base: u32,
  values_base: u32, // first c-value of this picture and scale
}

override LEVEL: u32 = 0u;
const HIGH_FIRST: u32 = 0x3f00u;
const HIGH_BINS: u32 = 2048u;
const LOW_BINS: u32 = 256u;

@group(0) @binding(0) var<storage, read> pool_params: array<PoolParams>;
@group(0) @binding(1) var<storage, read> c_values: array<u32>;
@group(0) @binding(2) var<storage, read_write> results: array<atomic<u32>>;
@group(0) @binding(3) var<storage, read_write> hist: array<atomic<u32>>;

var<workgroup> local_hist: array<atomic<u32>, HIGH_BINS>;
var<workgroup> chunk: array<u32, 256>;
var<workgroup> reduce: array<vec3u, 256>;
var<private> pp: PoolParams;

fn selecting() -> bool {
  return atomicLoad(&results[pp.result_base]) > pp.k;
}

fn level_bins() -> u32 {
  return select(LOW_BINS, HIGH_BINS, LEVEL == 0u);
}

fn level_offset() -> u32 {
  return pp.hist_base + select(HIGH_BINS + LEVEL * LOW_BINS - LOW_BINS, 0u, LEVEL == 0u);
}

// The bin of `bits` at this level, or none when it does not share the bits found so far.
fn level_bin(bits: u32, found: u32) -> u32 {
  if (LEVEL == 0u) {
    return (bits >> 16u) - HIGH_FIRST;
  }
  if (LEVEL == 1u) {
    return select(0xffffffffu, (bits >> 8u) & 0xffu, (bits >> 16u) == (found >> 16u));
  }
  return select(0xffffffffu, bits & 0xffu, (bits >> 8u) == (found >> 8u));
}

@compute @workgroup_size(256)
fn histogram(@builtin(local_invocation_index) li: u32, @builtin(workgroup_id) wg: vec3u, @builtin(num_workgroups) groups: vec3u) {
  pp = pool_params[wg.y];
  let bins = level_bins();
  for (var j = li; j < bins; j += 256u) {
    atomicStore(&local_hist[j], 0u);
  }
  workgroupBarrier();
  let on = selecting();
  let found = atomicLoad(&results[pp.result_base + 6u]);
  if (on) {
    for (var i = wg.x * 256u + li; i < pp.n; i += groups.x * 256u) {
      let bits = c_values[pp.values_base + i];
      if (bits != 0u) {
        let b = level_bin(bits, found);
        if (b < bins) {
          atomicAdd(&local_hist[b], 1u);
        }
      }
    }
  }
  workgroupBarrier();
  if (on) {
    let at = level_offset();
    for (var j = li; j < bins; j += 256u) {
      let c = atomicLoad(&local_hist[j]);
      if (c != 0u) {
        atomicAdd(&hist[at + j], c);
      }
    }
  }
}

// One workgroup: the bin holding the `need`-th largest value, walking down from the top.
@compute @workgroup_size(256)
fn find(@builtin(local_invocation_index) li: u32, @builtin(workgroup_id) wg: vec3u) {
  pp = pool_params[wg.y];
  let bins = level_bins();
  let per = bins / 256u;
  let at = level_offset();
  var s = 0u;
  for (var j = 0u; j < per; j++) {
    s += atomicLoad(&hist[at + li * per + j]);
  }
  chunk[li] = s;
  workgroupBarrier();
  if (li == 0u && selecting()) {
    var need = pp.k;
    var found = 0u;
    if (LEVEL > 0u) {
      need = atomicLoad(&results[pp.result_base + 7u]);
      found = atomicLoad(&results[pp.result_base + 6u]);
    }
    var t = 255u;
    while (t > 0u && chunk[t] < need) {
      need -= chunk[t];
      t -= 1u;
    }
    var j = per - 1u;
    loop {
      let c = atomicLoad(&hist[at + t * per + j]);
      if (c >= need || j == 0u) {
        break;
      }
      need -= c;
      j -= 1u;
    }
    let bin = t * per + j;
    if (LEVEL == 0u) {
      found = (bin + HIGH_FIRST) << 16u;
    } else if (LEVEL == 1u) {
      found = found | (bin << 8u);
    } else {
      found = found | bin;
    }
    atomicStore(&results[pp.result_base + 6u], found);
    atomicStore(&results[pp.result_base + 7u], need);
  }
}

// The values above t: their number and exact sum.
@compute @workgroup_size(256)
fn sum_above(@builtin(local_invocation_index) li: u32, @builtin(workgroup_id) wg: vec3u, @builtin(num_workgroups) groups: vec3u) {
  pp = pool_params[wg.y];
  let on = selecting();
  let t = atomicLoad(&results[pp.result_base + 6u]);
  var count = 0u;
  var sum = vec2u(0u, 0u);
  if (on) {
    for (var i = wg.x * 256u + li; i < pp.n; i += groups.x * 256u) {
      let bits = c_values[pp.values_base + i];
      if (bits > t) {
        count += 1u;
        sum = u64_add(sum, c_value_fixed(bits));
      }
    }
  }
  reduce[li] = vec3u(count, sum);
  workgroupBarrier();
  for (var s = 128u; s > 0u; s >>= 1u) {
    if (li < s) {
      let a = reduce[li];
      let b = reduce[li + s];
      reduce[li] = vec3u(a.x + b.x, u64_add(a.yz, b.yz));
    }
    workgroupBarrier();
  }
  if (li == 0u && on && reduce[0].x != 0u) {
    atomicAdd(&results[pp.result_base + 3u], reduce[0].x);
    atomic_add_u64(pp.result_base + 4u, reduce[0].yz);
  }
}
