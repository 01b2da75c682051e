// One scale's VIF numerator and denominator sums (libvmaf's vif_statistic_8/_16), exact.
// A workgroup filters a tile of TW x TH samples: the vertical pass (mirrored rows) writes
// the local means and second moments of the tile's rows, for its columns plus HALF
// either side, into workgroup memory; the horizontal pass and the per-sample log2 or
// linear terms follow, and the tile's sums are added to the frame's with 64-bit atomics
// (with carry): integer sums, so the order tiles and threads run in does not matter.
// Workgroup z is the frame of the batch; its sums go to its slice of the results.
// Needs common/u64.wgsl, common/f64.wgsl, vif/gain.wgsl, vif/filter.wgsl, vif/log2.wgsl, vif/batch.wgsl
// and an input (vif/input-frame.wgsl or vif/input-plane.wgsl).

struct StatParams {
  width: u32,
  height: u32,
  // vertical rounding: (sum + round) >> shift for the means and the second moments
  mu_round: u32,
  mu_shift: u32,
  sq_round: u32,
  sq_shift: u32,
  // this scale's sums: num_log (u64), den_log (u64), non_log sigma2_sq (u64), non_log count
  result_base: u32,
  half: u32, // taps either side of the centre (shaders/vif/filter.wgsl)
  // vif_enhn_gain_limit as F64: m.x, m.y, e
  gain_limit: vec4u,
  taps: array<vec4u, 5>,
  // fl(s + 65536 * 1e-10) - s in ulps of s, for s in binade E = 0..31 (E >= 17 used)
  eps: array<vec4u, 8>,
}

@group(0) @binding(3) var<uniform> params: StatParams;
@group(0) @binding(4) var<storage, read_write> sums: array<atomic<u32>>;

// 48 columns: with the widest filter's halo the vertical pass has 64 x (TH / GROUP) = 256
// items, one for each thread (64 columns took a second round for a quarter of them)
const TW: u32 = 48u;
const TH: u32 = 16u;
const THREADS: u32 = 256u;
const GROUP: u32 = 4u; // rows one thread filters vertically, sliding down its column
const_assert GROUP == 4u; // the vertical pass names its 4 accumulators
const SPAN: u32 = TW + 16u; // room for the widest filter (HALF = 8)
const PLANE: u32 = TH * SPAN;
const SIGMA_NSQ: u32 = 131072u; // libvmaf's sigma_nsq, 2.0 in 16.16

// The vertical pass's five values per sample: mu1, mu2 (16 bits) and the second moments
// ref², dis², ref·dis (32 bits).
var<workgroup> tile: array<u32, 5u * PLANE>;
// The tile's sums: num_log, den_log, non_log count, non_log sigma2_sq (low, high word).
var<workgroup> tile_sums: array<atomic<u32>, 5>;

// (x * y + 2^31) >> 32, libvmaf's rounded high product of the means.
fn rounded_high_product(x: u32, y: u32) -> u32 {
  let p = u64_mul_u32(x, y);
  let lo = p.x + 0x80000000u;
  return p.y + select(0u, 1u, lo < p.x);
}

// (hi * 2^16 + lo + round) >> shift for shift <= 16: a second moment's vertical rounding.
fn second_moment(lo: u32, hi: u32, round: u32, shift: u32) -> u32 {
  return (hi << (16u - shift)) + ((lo + round) >> shift);
}

fn plus_eps(s: F64) -> F64 {
  let binade = u32(s.e + 52);
  return F64(u64_add_u32(s.m, params.eps[binade >> 2u][binade & 3u]), s.e);
}

struct Terms {
  num_log: u32,
  den_log: u32,
  non_log: u32,
  sigma2_sq: u32, // summed where non_log
}

// One sample's contribution, from its filtered means and second moments: libvmaf's int32
// wrap-arounds, its table log2s, and its few double steps done exactly in F64.
fn vif_terms(mu1: u32, mu2: u32, xx: u32, yy: u32, xy: u32) -> Terms {
  let sigma1_sq = bitcast<i32>(xx - rounded_high_product(mu1, mu1));
  let sigma2_sq = max(bitcast<i32>(yy - rounded_high_product(mu2, mu2)), 0);
  let sigma12 = bitcast<i32>(xy - rounded_high_product(mu1, mu2));
  if (sigma1_sq < i32(SIGMA_NSQ)) {
    return Terms(0u, 0u, 1u, u32(sigma2_sq));
  }
  // log2(sigma_nsq + sigma1_sq) - log2(sigma_nsq), the sum passed as uint32 like libvmaf's
  let den_log = vif_log2_32(SIGMA_NSQ + u32(sigma1_sq)) - 2048u * 17u;
  if (sigma12 <= 0 || sigma2_sq <= 0) {
    return Terms(0u, den_log, 0u, 0u);
  }
  // g = sigma12 / (sigma1_sq + eps), sv_sq, g capped at the gain limit (vif/gain.wgsl):
  // estimated with an error bound where that decides the integers, else exactly
  let binade = firstLeadingBit(u32(sigma1_sq));
  let eps_step = ldexp(f32(params.eps[binade >> 2u][binade & 3u]), i32(binade) - 52);
  let limit_f32 = ldexp(mantissa_to_f32(params.gain_limit.xy), bitcast<i32>(params.gain_limit.z));
  let fast = vif_gain_fast(u32(sigma1_sq), eps_step, u32(sigma12), u32(sigma2_sq), limit_f32);
  var gain = fast.gain;
  let limit = F64(params.gain_limit.xy, bitcast<i32>(params.gain_limit.z));
  if (!fast.decided) {
    gain = vif_gain(u32(sigma1_sq), plus_eps(f64_from_u32(u32(sigma1_sq))), u32(sigma12), u32(sigma2_sq), limit);
  } else if (fast.capped) {
    gain.numer = gain_trunc(gain_mul_u32(gain_square(limit), u32(sigma1_sq)));
  }
  // numer1_tmp = (int64)(g * g * sigma1_sq) + numer1
  let numer1 = gain.sv_sq + SIGMA_NSQ;
  let numer1_tmp = u64_add_u32(gain.numer, numer1);
  return Terms(vif_log2_64(numer1_tmp) - vif_log2_32(numer1), den_log, 0u, 0u);
}

// Vertical sums of one sample: the means' and, for the second moments, the sums of the
// products' low and high 16-bit halves, kept apart so that each stays below 2^32 (taps
// sum to 65536).
struct Vertical {
  mu1: u32,
  mu2: u32,
  xx: vec2u,
  yy: vec2u,
  xy: vec2u,
}

// One input row's samples and their products split into 16-bit halves.
struct Row {
  a: u32,
  b: u32,
  aa: vec2u,
  bb: vec2u,
  ab: vec2u,
}

// Whether the products need their high halves: not for 8-bit samples (products below
// 2^16, so their tap sums stay below 2^32 whole), which saves 3 of 8 multiply-adds a tap.
override WIDE_PRODUCTS: bool = true;

fn split(v: u32) -> vec2u {
  if (WIDE_PRODUCTS) {
    return vec2u(v & 0xffffu, v >> 16u);
  }
  return vec2u(v, 0u);
}

fn accumulate(acc: ptr<function, Vertical>, f: u32, r: Row) {
  (*acc).mu1 += f * r.a;
  (*acc).mu2 += f * r.b;
  (*acc).xx.x += f * r.aa.x;
  (*acc).yy.x += f * r.bb.x;
  (*acc).xy.x += f * r.ab.x;
  if (WIDE_PRODUCTS) {
    (*acc).xx.y += f * r.aa.y;
    (*acc).yy.y += f * r.bb.y;
    (*acc).xy.y += f * r.ab.y;
  }
}

// Output row j of a vertical item takes input row i with tap i - j, where that is a tap.
fn tap_of(i: u32, j: u32) -> bool {
  let HALF = filter_half();
  return i >= j && i - j <= 2u * HALF;
}

fn store_vertical(o: u32, acc: Vertical) {
  tile[o] = (acc.mu1 + params.mu_round) >> params.mu_shift;
  tile[PLANE + o] = (acc.mu2 + params.mu_round) >> params.mu_shift;
  tile[2u * PLANE + o] = second_moment(acc.xx.x, acc.xx.y, params.sq_round, params.sq_shift);
  tile[3u * PLANE + o] = second_moment(acc.yy.x, acc.yy.y, params.sq_round, params.sq_shift);
  tile[4u * PLANE + o] = second_moment(acc.xy.x, acc.xy.y, params.sq_round, params.sq_shift);
}

// The horizontal filter of one of the tile's 16-bit planes at tile index c (folded: the
// taps are symmetric).
fn horizontal(plane: u32, c: u32) -> u32 {
  let HALF = filter_half();
  let at = plane * PLANE + c;
  var s = tap(HALF) * tile[at];
  for (var k = 1u; k <= HALF; k++) {
    s += tap(HALF - k) * (tile[at - k] + tile[at + k]);
  }
  return s;
}

// (Σ f·v + 2^15) >> 16 for one of the tile's 32-bit planes: the 48-bit sum from the sums
// of the values' 16-bit halves.
fn horizontal_wide(plane: u32, c: u32) -> u32 {
  let HALF = filter_half();
  let at = plane * PLANE + c;
  let v = tile[at];
  var s = tap(HALF) * vec2u(v & 0xffffu, v >> 16u);
  for (var k = 1u; k <= HALF; k++) {
    let a = tile[at - k];
    let b = tile[at + k];
    s += tap(HALF - k) * vec2u((a & 0xffffu) + (b & 0xffffu), (a >> 16u) + (b >> 16u));
  }
  return s.y + ((s.x + 32768u) >> 16u);
}

fn add_sum(i: u32, v: vec2u) {
  if (v.x == 0u && v.y == 0u) {
    return;
  }
  let old = atomicAdd(&sums[i], v.x);
  atomicAdd(&sums[i + 1u], v.y + select(0u, 1u, old + v.x < old));
}

@compute @workgroup_size(THREADS)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_index) li: u32) {
  let HALF = filter_half();
  let z = wg.z;
  let w = i32(params.width);
  let h = i32(params.height);
  let left = i32(wg.x * TW) - i32(HALF); // picture column of the tile's first entry
  let top = wg.y * TH;
  let span = TW + 2u * HALF;

  // vertical pass: each item is GROUP rows of one column; each input sample is read once
  // and added to every output row whose taps reach it
  for (var item = li; item < span * (TH / GROUP); item += THREADS) {
    let group = item / span;
    let tx = item - group * span;
    let first = top + group * GROUP;
    if (first >= params.height) {
      continue;
    }
    let x = mirror(left + i32(tx), w);
    // GROUP (4) accumulators by name, not an array indexed in the loop, so that they stay
    // in registers; zeroed explicitly: a bare `var acc: array<...>;` in a loop body was not
    // re-zeroed per iteration here (Dawn + lavapipe), though WGSL says it is
    var acc0 = Vertical();
    var acc1 = Vertical();
    var acc2 = Vertical();
    var acc3 = Vertical();
    for (var i = 0u; i < GROUP + 2u * HALF; i++) {
      let row = mirror(i32(first + i) - i32(HALF), h);
      let a = vif_ref(z, x, row);
      let b = vif_dis(z, x, row);
      let r = Row(a, b, split(a * a), split(b * b), split(a * b));
      if (tap_of(i, 0u)) {
        accumulate(&acc0, tap(i), r);
      }
      if (tap_of(i, 1u)) {
        accumulate(&acc1, tap(i - 1u), r);
      }
      if (tap_of(i, 2u)) {
        accumulate(&acc2, tap(i - 2u), r);
      }
      if (tap_of(i, 3u)) {
        accumulate(&acc3, tap(i - 3u), r);
      }
    }
    let o = group * GROUP * SPAN + tx;
    store_vertical(o, acc0);
    store_vertical(o + SPAN, acc1);
    store_vertical(o + 2u * SPAN, acc2);
    store_vertical(o + 3u * SPAN, acc3);
  }
  workgroupBarrier();

  // horizontal pass and each sample's terms, the tile's samples dealt out to the threads
  var num_log = 0u;
  var den_log = 0u;
  var non_log = 0u;
  var sigma2_sq = vec2u(0u, 0u);
  for (var s = li; s < TW * TH; s += THREADS) {
    let r = s / TW;
    let col = s - r * TW;
    let x = wg.x * TW + col;
    if (x < params.width && top + r < params.height) {
      let c = r * SPAN + col + HALF;
      let t = vif_terms(horizontal(0u, c), horizontal(1u, c), horizontal_wide(2u, c), horizontal_wide(3u, c), horizontal_wide(4u, c));
      num_log += t.num_log;
      den_log += t.den_log;
      non_log += t.non_log;
      sigma2_sq = u64_add_u32(sigma2_sq, t.sigma2_sq);
    }
  }

  // the tile's sums (workgroup memory starts zeroed): the log terms and counts fit 32
  // bits, the sigma2_sq sum needs 64
  if (num_log != 0u) {
    atomicAdd(&tile_sums[0], num_log);
  }
  if (den_log != 0u) {
    atomicAdd(&tile_sums[1], den_log);
  }
  if (non_log != 0u) {
    atomicAdd(&tile_sums[2], non_log);
    let old = atomicAdd(&tile_sums[3], sigma2_sq.x);
    atomicAdd(&tile_sums[4], sigma2_sq.y + select(0u, 1u, old + sigma2_sq.x < old));
  }
  workgroupBarrier();
  if (li == 0u) {
    let base = z * batch.result_stride + params.result_base;
    add_sum(base, vec2u(atomicLoad(&tile_sums[0]), 0u));
    add_sum(base + 2u, vec2u(atomicLoad(&tile_sums[1]), 0u));
    add_sum(base + 4u, vec2u(atomicLoad(&tile_sums[3]), atomicLoad(&tile_sums[4])));
    atomicAdd(&sums[base + 6u], atomicLoad(&tile_sums[2]));
  }
}
