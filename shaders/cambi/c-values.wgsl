// cambi's c-values for one scale, one 16x16 tile of pixels per workgroup. A pixel of band
// code v (masked, with visible contrast steps) takes max over its visible steps d of
// w_d * p(v) * pm / (p(v) + pm), pm = max(p(v + d + 1), p(v - d - 1)), where p(u) counts the
// masked pixels of code u in the window around it (clipped to the picture).
//
// Masked areas are flat, so a tile's pixels read few codes: their own, and a visible step
// either side. The workgroup gives each such code a slot and keeps, per slot and column
// of the region the tile's windows cover (at most 80), the count over the current row's
// window rows: column histograms restricted to the codes read. Row by row down the tile
// it adds the entering picture row and removes the leaving one (one update per region
// column), then each pixel of the row sums its window's columns of the slots it reads
// (with sums of 8 columns for the full groups inside the window). More codes than
// SLOTS: further passes over the rows. Work per tile: the region once plus two rows per
// tile row, and per pixel a few window sums, whatever the number of codes (ADR 0009).
//
// A pixel keeps p(v) and, per step, the larger neighbour count, and takes the c-value at
// the end as libvmaf does: the integer product rounded to float (to nearest even, done
// here in integers), times the float reciprocal table entry; a product has nothing to
// fuse with. Needs u64.wgsl, fixed-point.wgsl and batch.wgsl.

struct CParams {
  width: u32,
  height: u32,
  pad: u32,         // half the window
  band_base: u32,   // codes [band_base, band_base + band_size) take part
  band_size: u32,
  num_diffs: u32,
  result_base: u32, // this picture and scale's result words
  pad0: u32,
}

const TILE: u32 = 16u;
const SLOTS: u32 = 64u;        // codes per pass over the tile's rows
const PAIRS: u32 = 40u;        // region columns (80), two counts to a word
const GROUP_WORDS: u32 = 5u;   // per slot, 10 sums of 8 columns, two to a word
const BAND_WORDS: u32 = 34u;   // bit sets over the band (up to 1088 codes)
const MAX_DIFFS: u32 = 32u;    // 2^max_log_contrast steps at most
const ROW_STRIDE: u32 = 33u;   // per pixel of a row: p(v), then a count per step
const NONE: u32 = 0xffffu;
const MASK_BIT: u32 = 0x10000u;

@group(0) @binding(0) var<uniform> cp: CParams;
@group(0) @binding(1) var<storage, read> filtered: array<u32>;
@group(0) @binding(2) var<storage, read_write> c_values: array<u32>;
@group(0) @binding(3) var<storage, read> tables: array<u32>; // 32 contrast weights, then visible steps per band code
@group(0) @binding(4) var<storage, read> reciprocal: array<f32>;
@group(0) @binding(5) var<storage, read_write> results: array<atomic<u32>>;

// per slot and region column pair: the window-row counts (low half: even column); reused
// as scratch by the pooling
var<workgroup> hist: array<atomic<u32>, 2560>;
var<workgroup> group_hist: array<atomic<u32>, 320>; // per slot, sums of 8 columns
var<workgroup> row_counts: array<atomic<u32>, 528>; // the current row's counts, 16 x ROW_STRIDE
var<workgroup> wanted: array<atomic<u32>, BAND_WORDS>;
var<workgroup> wanted_set: array<u32, BAND_WORDS>;
var<workgroup> slot_base: array<u32, BAND_WORDS>;
var<workgroup> any_active: atomic<u32>;
var<workgroup> any_active_u: u32;
var<workgroup> slot_total: u32;
var<workgroup> tile_v: array<u32, 256>; // the tile's pixels: band code (NONE: no c-value), visible steps
var<workgroup> tile_steps: array<u32, 256>;

// The band code of a pixel that takes part in the histograms, else NONE.
fn band_code(x: u32, y: u32) -> u32 {
  let w = filtered[image_base() + y * cp.width + x];
  let code = w & 0xffffu;
  if ((w & MASK_BIT) == 0u || code < cp.band_base || code - cp.band_base >= cp.band_size) {
    return NONE;
  }
  return code - cp.band_base;
}

// A pixel that gets a c-value: its band code (NONE if it gets none) and visible steps.
struct Centre {
  v: u32,
  steps: u32,
}

fn centre_of(x: u32, y: u32) -> Centre {
  if (x < cp.width && y < cp.height) {
    let k = band_code(x, y);
    if (k != NONE) {
      let steps = tables[32u + k];
      if (steps != 0u) {
        return Centre(k, steps);
      }
    }
  }
  return Centre(NONE, 0u);
}

// The code a pixel reads at step offset t - num_diffs (t in [0, 2 num_diffs]), or NONE.
fn read_code(c: Centre, t: u32) -> u32 {
  if (c.v == NONE) {
    return NONE;
  }
  if (t == cp.num_diffs) {
    return c.v;
  }
  let a = select(cp.num_diffs - t, t - cp.num_diffs, t > cp.num_diffs);
  if (((c.steps >> (a - 1u)) & 1u) == 0u) {
    return NONE;
  }
  if (t > cp.num_diffs) {
    return select(NONE, c.v + a, c.v + a < cp.band_size);
  }
  return select(NONE, c.v - a, c.v >= a);
}

// Marks the codes the pixel reads; returns whether any pixel of the tile gets a c-value (uniform).
fn mark_wanted(li: u32, c: Centre) -> bool {
  if (li < BAND_WORDS) {
    atomicStore(&wanted[li], 0u);
  }
  if (li == 0u) {
    atomicStore(&any_active, 0u);
  }
  workgroupBarrier();
  if (c.v != NONE) {
    atomicOr(&any_active, 1u);
    for (var t = 0u; t <= 2u * cp.num_diffs; t++) {
      let u = read_code(c, t);
      if (u != NONE) {
        atomicOr(&wanted[u >> 5u], 1u << (u & 31u));
      }
    }
  }
  workgroupBarrier();
  if (li == 0u) {
    any_active_u = atomicLoad(&any_active);
  }
  return workgroupUniformLoad(&any_active_u) != 0u;
}

// Numbers the wanted codes in order (slots); returns how many there are (uniform).
fn number_slots(li: u32) -> u32 {
  if (li < BAND_WORDS) {
    wanted_set[li] = atomicLoad(&wanted[li]);
  }
  workgroupBarrier();
  if (li < BAND_WORDS) {
    var base = 0u;
    for (var w = 0u; w < li; w++) {
      base += countOneBits(wanted_set[w]);
    }
    slot_base[li] = base;
    if (li == BAND_WORDS - 1u) {
      slot_total = base + countOneBits(wanted_set[li]);
    }
  }
  return workgroupUniformLoad(&slot_total);
}

fn slot_of(u: u32) -> u32 {
  let w = u >> 5u;
  let bit = 1u << (u & 31u);
  let bits = wanted_set[w];
  if ((bits & bit) == 0u) {
    return NONE;
  }
  return slot_base[w] + countOneBits(bits & (bit - 1u));
}

// Adds (or removes) a pixel of band code u (NONE: none) in region column c to the histograms of the pass's slots.
fn update(u: u32, c: u32, add: bool, first_slot: u32) {
  if (u == NONE) {
    return;
  }
  let s = slot_of(u);
  if (s == NONE || s < first_slot || s >= first_slot + SLOTS) {
    return;
  }
  let l = s - first_slot;
  let inc = 1u << ((c & 1u) * 16u);
  let g = c >> 3u;
  let ginc = 1u << ((g & 1u) * 16u);
  if (add) {
    atomicAdd(&hist[l * PAIRS + (c >> 1u)], inc);
    atomicAdd(&group_hist[l * GROUP_WORDS + (g >> 1u)], ginc);
  } else {
    atomicSub(&hist[l * PAIRS + (c >> 1u)], inc);
    atomicSub(&group_hist[l * GROUP_WORDS + (g >> 1u)], ginc);
  }
}

// Slot l's count over region columns [a, b] (a <= b), from the column pairs.
fn column_sum(l: u32, a: u32, b: u32) -> u32 {
  let base = l * PAIRS;
  let wl = a >> 1u;
  let wh = b >> 1u;
  var s = 0u;
  for (var q = wl; q <= wh; q++) {
    s += atomicLoad(&hist[base + q]);
  }
  var total = (s & 0xffffu) + (s >> 16u);
  if ((a & 1u) == 1u) {
    total -= atomicLoad(&hist[base + wl]) & 0xffffu;
  }
  if ((b & 1u) == 0u) {
    total -= atomicLoad(&hist[base + wh]) >> 16u;
  }
  return total;
}

// Slot l's count over the window's region columns [cl, ch]: whole 8-column groups from their sums.
fn window_sum(l: u32, cl: u32, ch: u32) -> u32 {
  let gl = (cl + 7u) >> 3u;
  let gh = (ch + 1u) >> 3u;
  if (gl >= gh) {
    return column_sum(l, cl, ch);
  }
  var total = 0u;
  if (cl < gl * 8u) {
    total += column_sum(l, cl, gl * 8u - 1u);
  }
  for (var g = gl; g < gh; g++) {
    total += (atomicLoad(&group_hist[l * GROUP_WORDS + (g >> 1u)]) >> ((g & 1u) * 16u)) & 0xffffu;
  }
  if (gh * 8u <= ch) {
    total += column_sum(l, gh * 8u, ch);
  }
  return total;
}

// C's (float) conversion of an integer below 2^32: round to nearest, ties to even.
fn to_f32_nearest_even(n: u32) -> f32 {
  if (n < 0x1000000u) {
    return f32(n);
  }
  let shift = 8u - countLeadingZeros(n);
  let half = 1u << (shift - 1u);
  let rem = n & ((half << 1u) - 1u);
  var q = n >> shift;
  if (rem > half || (rem == half && (q & 1u) == 1u)) {
    q += 1u;
  }
  return ldexp(f32(q), i32(shift));
}

fn c_value(weight: u32, p0: u32, pm: u32) -> f32 {
  return to_f32_nearest_even(weight * p0 * pm) * reciprocal[p0 + pm];
}

// The c-value from p(v) and the per-step maxima of the neighbour counts, in libvmaf's order.
fn c_from_counts(c: Centre, p0: u32, pm: ptr<function, array<u32, MAX_DIFFS>>) -> f32 {
  var best = 0.0;
  if (c.v != NONE) {
    for (var d = 0u; d < cp.num_diffs; d++) {
      let m = (*pm)[d];
      if (((c.steps >> d) & 1u) != 0u && m > 0u) {
        let val = c_value(tables[d], p0, m);
        if (val > best) {
          best = val;
        }
      }
    }
  }
  return best;
}

// Writes the tile's c-values and adds their number and exact sum to the results (hist as scratch).
fn store_and_pool(li: u32, x: u32, y: u32, c: f32) {
  let bits = bitcast<u32>(c);
  if (x < cp.width && y < cp.height) {
    c_values[frame_z * batch.values_words + y * cp.width + x] = bits;
  }
  var count = 0u;
  var sum = vec2u(0u, 0u);
  if (bits != 0u) {
    count = 1u;
    sum = c_value_fixed(bits);
  }
  workgroupBarrier();
  atomicStore(&hist[li], count);
  atomicStore(&hist[256u + li], sum.x);
  atomicStore(&hist[512u + li], sum.y);
  workgroupBarrier();
  for (var s = 128u; s > 0u; s >>= 1u) {
    if (li < s) {
      atomicAdd(&hist[li], atomicLoad(&hist[li + s]));
      let t = u64_add(vec2u(atomicLoad(&hist[256u + li]), atomicLoad(&hist[512u + li])), vec2u(atomicLoad(&hist[256u + li + s]), atomicLoad(&hist[512u + li + s])));
      atomicStore(&hist[256u + li], t.x);
      atomicStore(&hist[512u + li], t.y);
    }
    workgroupBarrier();
  }
  if (li == 0u) {
    let n = atomicLoad(&hist[0]);
    if (n != 0u) {
      let result_base = frame_z * batch.result_words + cp.result_base;
      atomicAdd(&results[result_base], n);
      atomic_add_u64(result_base + 1u, vec2u(atomicLoad(&hist[256]), atomicLoad(&hist[512])));
    }
  }
}

// Tile geometry the row updates need (uniform across the workgroup).
struct Rows {
  x0: u32,
  y0: u32,
  rx0: u32,
  region_width: u32,
  rows: u32,
}

// The code thread li applies before tile row r (r >= 1): threads [0, 80) remove the row
// leaving the window (column li), threads [128, 208) add the entering one; NONE: nothing.
fn row_code(li: u32, g: Rows, r: u32) -> u32 {
  if (r >= g.rows) {
    return NONE;
  }
  let pad = cp.pad;
  let yr = g.y0 + r;
  let a = select(0u, yr - 1u - pad, yr > pad);
  let na = select(0u, yr - pad, yr > pad);
  let b = min(cp.height - 1u, yr - 1u + pad);
  let nb = min(cp.height - 1u, yr + pad);
  if (li < g.region_width && na > a) {
    return band_code(g.rx0 + li, a);
  }
  if (li >= 128u && li - 128u < g.region_width && nb > b) {
    return band_code(g.rx0 + li - 128u, nb);
  }
  return NONE;
}

@compute @workgroup_size(16, 16)
fn main(@builtin(local_invocation_index) li: u32, @builtin(local_invocation_id) lid: vec3u, @builtin(workgroup_id) wg: vec3u) {
  frame_z = wg.z;
  let width = cp.width;
  let height = cp.height;
  let pad = cp.pad;
  let x0 = wg.x * TILE;
  let y0 = wg.y * TILE;
  let x = x0 + lid.x;
  let y = y0 + lid.y;
  let centre = centre_of(x, y);
  tile_v[li] = centre.v;
  tile_steps[li] = centre.steps;
  if (!mark_wanted(li, centre)) {
    if (x < width && y < height) {
      c_values[frame_z * batch.values_words + y * width + x] = 0u;
    }
    return;
  }
  let slots = number_slots(li);
  let rx0 = select(0u, x0 - pad, x0 > pad);
  let g = Rows(x0, y0, rx0, min(width, x0 + TILE + pad) - rx0, min(TILE, height - y0));
  let region_width = g.region_width;
  let lookups = 2u * cp.num_diffs + 1u;
  // the lookups of a row: pixel (x0 + lx, row), offsets t = lj, lj + 16, ...
  let lx = li & 15u;
  let lj = li >> 4u;
  let px = x0 + lx;
  let cl = select(0u, px - pad, px > pad) - rx0;
  let ch = min(width - 1u, px + pad) - rx0;
  let ry0 = select(0u, y0 - pad, y0 > pad);
  let window_rows = min(height - 1u, y0 + pad) - ry0 + 1u;
  let fill = window_rows * region_width;

  var p0 = 0u;
  var pm: array<u32, MAX_DIFFS>;
  for (var first_slot = 0u; first_slot < slots; first_slot += SLOTS) {
    for (var i = li; i < SLOTS * PAIRS; i += 256u) {
      atomicStore(&hist[i], 0u);
    }
    for (var i = li; i < SLOTS * GROUP_WORDS; i += 256u) {
      atomicStore(&group_hist[i], 0u);
    }
    workgroupBarrier();
    // the window rows of the tile's first row, four loads in flight per thread
    for (var i = li; i < fill; i += 1024u) {
      var u = array<u32, 4>(NONE, NONE, NONE, NONE);
      for (var q = 0u; q < 4u; q++) {
        let at = i + q * 256u;
        if (at < fill) {
          let r = at / region_width;
          u[q] = band_code(rx0 + at - r * region_width, ry0 + r);
        }
      }
      for (var q = 0u; q < 4u; q++) {
        let at = i + q * 256u;
        if (at < fill) {
          update(u[q], at % region_width, true, first_slot);
        }
      }
    }
    // the next row's update is loaded a row ahead
    var next = row_code(li, g, 1u);
    for (var r = 0u; r < g.rows; r++) {
      if (r > 0u) {
        let u = next;
        next = row_code(li, g, r + 1u);
        update(u, select(li - 128u, li, li < 128u), li >= 128u, first_slot);
      }
      workgroupBarrier();
      let c = Centre(tile_v[r * TILE + lx], tile_steps[r * TILE + lx]);
      for (var t = lj; t < lookups; t += 16u) {
        let u = read_code(c, t);
        if (u != NONE) {
          let s = slot_of(u);
          if (s >= first_slot && s < first_slot + SLOTS) {
            let n = window_sum(s - first_slot, cl, ch);
            let at = select(cp.num_diffs - t, t - cp.num_diffs, t > cp.num_diffs);
            atomicMax(&row_counts[lx * ROW_STRIDE + at], n);
          }
        }
      }
      workgroupBarrier();
      // this row's pixels take their counts (and clear them for the next row)
      if (lid.y == r) {
        p0 = max(p0, atomicExchange(&row_counts[lx * ROW_STRIDE], 0u));
        for (var d = 0u; d < cp.num_diffs; d++) {
          pm[d] = max(pm[d], atomicExchange(&row_counts[lx * ROW_STRIDE + 1u + d], 0u));
        }
      }
    }
    workgroupBarrier();
  }
  store_and_pool(li, x, y, c_from_counts(centre, p0, &pm));
}
