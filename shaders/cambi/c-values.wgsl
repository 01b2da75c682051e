// cambi's c-values for one scale, one 16x16 tile of pixels per workgroup. A pixel of band
// code v (masked, with visible contrast steps) takes max over its visible steps d of
// w_d * p(v) * pm / (p(v) + pm), pm = max(p(v + d + 1), p(v - d - 1)), where p(u) counts the
// masked pixels of code u in the window around it (clipped to the picture).
//
// Masked areas are flat, so a tile holds few codes: the workgroup loads the codes of the
// region its windows cover (at most 80x80) into workgroup memory, and counts only the
// codes some pixel reads and the region holds: per code, column counts over the window's
// rows (sliding down a few rows per thread), then per pixel the sum of its window's
// columns. The float steps are libvmaf's: the integer product rounded to float (to
// nearest even, done here in integers), times the float reciprocal table entry; a product
// has nothing to fuse with. Needs u64.wgsl and fixed-point.wgsl.

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
const REGION_WORDS: u32 = 40u; // a region row: 80 codes, two to a word
const BAND_WORDS: u32 = 34u;   // bit sets over the band (up to 1088 codes)
const NONE: u32 = 0xffffu;
const MASK_BIT: u32 = 0x10000u;

@group(0) @binding(0) var<uniform> cp: CParams;
@group(0) @binding(1) var<storage, read> filtered: array<u32>;
@group(0) @binding(2) var<storage, read_write> c_values: array<u32>;
@group(0) @binding(3) var<storage, read> tables: array<u32>; // 32 contrast weights, then visible steps per band code
@group(0) @binding(4) var<storage, read> reciprocal: array<f32>;
@group(0) @binding(5) var<storage, read_write> results: array<atomic<u32>>;

var<workgroup> region: array<u32, 3200>;
var<workgroup> column_counts: array<u32, 640>; // 16 rows x 40 words, two column counts to a word
var<workgroup> present: array<atomic<u32>, BAND_WORDS>;
var<workgroup> centres: array<atomic<u32>, BAND_WORDS>;
var<workgroup> neighbours: array<atomic<u32>, BAND_WORDS>;
var<workgroup> centre_set: array<u32, BAND_WORDS>;
var<workgroup> neighbour_set: array<u32, BAND_WORDS>;
var<workgroup> any_active: atomic<u32>;
var<workgroup> any_active_u: u32;

// The band code of a pixel that takes part in the histograms, else NONE.
fn band_code(x: u32, y: u32) -> u32 {
  let w = filtered[y * cp.width + x];
  let code = w & 0xffffu;
  if ((w & MASK_BIT) == 0u || code < cp.band_base || code - cp.band_base >= cp.band_size) {
    return NONE;
  }
  return code - cp.band_base;
}

// Column counts of code u over each tile row's window rows, for the region's columns.
fn count_columns(u: u32, li: u32, y0: u32, ry0: u32, region_width: u32) {
  if (li < 240u) {
    let pair = li % REGION_WORDS;
    let first_row = (li / REGION_WORDS) * 3u;
    let last_row = min(first_row + 3u, TILE);
    if (pair * 2u < region_width) {
      let key = u | (u << 16u);
      var acc = 0u;
      var a = 0u;
      var b = 0u;
      for (var r = first_row; r < last_row; r++) {
        let y = y0 + r;
        if (y >= cp.height) {
          break;
        }
        let na = select(0u, y - cp.pad, y > cp.pad) - ry0;
        let nb = min(cp.height - 1u, y + cp.pad) - ry0;
        if (r == first_row) {
          for (var q = na; q <= nb; q++) {
            acc += matches(region[q * REGION_WORDS + pair] ^ key);
          }
        } else {
          if (nb > b) {
            acc += matches(region[nb * REGION_WORDS + pair] ^ key);
          }
          if (na > a) {
            acc -= matches(region[a * REGION_WORDS + pair] ^ key);
          }
        }
        a = na;
        b = nb;
        column_counts[r * REGION_WORDS + pair] = acc;
      }
    }
  }
  workgroupBarrier();
}

// One count per half-word whose code matched (the XOR left it zero).
fn matches(x: u32) -> u32 {
  return select(0u, 1u, (x & 0xffffu) == 0u) + select(0u, 0x10000u, (x >> 16u) == 0u);
}

// The window's count from the column counts of row `row`, region columns [cl, ch].
fn window_count(row: u32, cl: u32, ch: u32) -> u32 {
  let base = row * REGION_WORDS;
  let wl = cl >> 1u;
  let wh = ch >> 1u;
  var s = 0u;
  for (var q = wl; q <= wh; q++) {
    s += column_counts[base + q];
  }
  var total = (s & 0xffffu) + (s >> 16u);
  if ((cl & 1u) == 1u) {
    total -= column_counts[base + wl] & 0xffffu;
  }
  if ((ch & 1u) == 0u) {
    total -= column_counts[base + wh] >> 16u;
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

@compute @workgroup_size(16, 16)
fn main(@builtin(local_invocation_index) li: u32, @builtin(local_invocation_id) lid: vec3u, @builtin(workgroup_id) wg: vec3u) {
  let width = cp.width;
  let height = cp.height;
  let pad = cp.pad;
  let x0 = wg.x * TILE;
  let y0 = wg.y * TILE;
  let x = x0 + lid.x;
  let y = y0 + lid.y;
  let inside = x < width && y < height;
  if (li < BAND_WORDS) {
    atomicStore(&present[li], 0u);
    atomicStore(&centres[li], 0u);
    atomicStore(&neighbours[li], 0u);
  }
  if (li == 0u) {
    atomicStore(&any_active, 0u);
  }
  workgroupBarrier();

  // this pixel: its band code when it gets a c-value, and its visible steps
  var v = NONE;
  var steps = 0u;
  if (inside) {
    let k = band_code(x, y);
    if (k != NONE) {
      steps = tables[32u + k];
      if (steps != 0u) {
        v = k;
        atomicOr(&centres[k >> 5u], 1u << (k & 31u));
        atomicOr(&any_active, 1u);
        for (var d = 0u; d < cp.num_diffs; d++) {
          if (((steps >> d) & 1u) != 0u) {
            let up = k + d + 1u;
            if (up < cp.band_size) {
              atomicOr(&neighbours[up >> 5u], 1u << (up & 31u));
            }
            if (k >= d + 1u) {
              let down = k - d - 1u;
              atomicOr(&neighbours[down >> 5u], 1u << (down & 31u));
            }
          }
        }
      }
    }
  }
  workgroupBarrier();
  if (li == 0u) {
    any_active_u = atomicLoad(&any_active);
  }
  if (workgroupUniformLoad(&any_active_u) == 0u) {
    if (inside) {
      c_values[y * width + x] = 0u;
    }
    return;
  }

  // the codes of the region every window of the tile covers
  let rx0 = select(0u, x0 - pad, x0 > pad);
  let ry0 = select(0u, y0 - pad, y0 > pad);
  let region_width = min(width, x0 + TILE + pad) - rx0;
  let region_height = min(height, y0 + TILE + pad) - ry0;
  for (var i = li; i < region_height * REGION_WORDS; i += 256u) {
    let r = i / REGION_WORDS;
    let c = (i - r * REGION_WORDS) * 2u;
    var lo = NONE;
    var hi = NONE;
    if (c < region_width) {
      lo = band_code(rx0 + c, ry0 + r);
    }
    if (c + 1u < region_width) {
      hi = band_code(rx0 + c + 1u, ry0 + r);
    }
    region[i] = lo | (hi << 16u);
    if (lo != NONE) {
      atomicOr(&present[lo >> 5u], 1u << (lo & 31u));
    }
    if (hi != NONE && hi != lo) {
      atomicOr(&present[hi >> 5u], 1u << (hi & 31u));
    }
  }
  workgroupBarrier();
  if (li < BAND_WORDS) {
    centre_set[li] = atomicLoad(&centres[li]);
    neighbour_set[li] = atomicLoad(&neighbours[li]) & atomicLoad(&present[li]);
  }
  workgroupBarrier();

  // this pixel's window in region columns
  let cl = select(0u, x - pad, x > pad) - rx0;
  let ch = min(width - 1u, x + pad) - rx0;

  // p(v) for every pixel: one count per code some pixel of the tile has
  var p0 = 0u;
  for (var wi = 0u; wi < BAND_WORDS; wi++) {
    var codes = workgroupUniformLoad(&centre_set[wi]);
    loop {
      if (codes == 0u) {
        break;
      }
      let u = wi * 32u + firstTrailingBit(codes);
      codes &= codes - 1u;
      count_columns(u, li, y0, ry0, region_width);
      if (v == u) {
        p0 = window_count(lid.y, cl, ch);
      }
      workgroupBarrier();
    }
  }

  // then each neighbouring code the region holds: the steps it is the end of
  var c = 0.0;
  for (var wi = 0u; wi < BAND_WORDS; wi++) {
    var codes = workgroupUniformLoad(&neighbour_set[wi]);
    loop {
      if (codes == 0u) {
        break;
      }
      let u = wi * 32u + firstTrailingBit(codes);
      codes &= codes - 1u;
      count_columns(u, li, y0, ry0, region_width);
      if (v != NONE) {
        let a = select(v - u, u - v, u > v);
        if (a >= 1u && a <= cp.num_diffs && ((steps >> (a - 1u)) & 1u) != 0u) {
          let pm = window_count(lid.y, cl, ch);
          if (pm > 0u) {
            let val = c_value(tables[a - 1u], p0, pm);
            if (val > c) {
              c = val;
            }
          }
        }
      }
      workgroupBarrier();
    }
  }

  // the c-values, their number and exact sum
  let bits = bitcast<u32>(c);
  if (inside) {
    c_values[y * width + x] = bits;
  }
  var count = 0u;
  var sum = vec2u(0u, 0u);
  if (bits != 0u) {
    count = 1u;
    sum = c_value_fixed(bits);
  }
  region[li] = count;
  region[256u + li] = sum.x;
  region[512u + li] = sum.y;
  workgroupBarrier();
  for (var s = 128u; s > 0u; s >>= 1u) {
    if (li < s) {
      region[li] += region[li + s];
      let t = u64_add(vec2u(region[256u + li], region[512u + li]), vec2u(region[256u + li + s], region[512u + li + s]));
      region[256u + li] = t.x;
      region[512u + li] = t.y;
    }
    workgroupBarrier();
  }
  if (li == 0u && region[0] != 0u) {
    atomicAdd(&results[cp.result_base], region[0]);
    atomic_add_u64(cp.result_base + 1u, vec2u(region[256], region[512]));
  }
}
