// libvmaf's integer motion on the reference luma (plane 0), exactly. Needs common/frame.wgsl.
//
// libvmaf blurs the difference of two pictures with the Q16 taps [3571, 16004, 26386, 16004, 3571]
// (vertical pass rounded with (acc + 2^(bpc-1)) >> bpc, horizontal one with (acc + 2^15) >> 16,
// reflect-101 edges) and sums |.| (uint32 per row, uint64 overall).
//
// motion_sad reads the luma of a frame and of the frame `distance` before it and blurs their
// difference directly, so no blurred plane is stored or read back. The earlier frame is in the
// batch's upload, or, for the batch's first `distance` frames, in a ring of luma copies (raw
// words of plane 0, the upload's packing): the batch's last `distance` frames copy their own
// rows there for the next batch. The copy costs a write of the plane's bytes (2 bytes a sample
// at 10 bits) where a plane of column sums cost a write and a read of 4.
//
// One workgroup per tile of TILE columns (x) by ROWS rows (y) and frame of the batch (z); frame
// z's copy goes to ring slot (first_slot + z) % ring. Each thread takes one column of the tile
// or of its 4 halo columns (recomputed, not exchanged) and runs the vertical pass down it, one
// load of each picture per row; the rounded sums meet in workgroup memory, and WG / ROWS
// threads a row then run the horizontal pass on ROWS columns each. libvmaf's per-row uint32
// sums wrap, so a tile adds each row's part into a per-row word (wrapping adds do not depend on
// order), and motion_total then adds a frame's row words into its uint64 SAD and clears them.

const F0: u32 = 3571u;
const F1: u32 = 16004u;
const F2: u32 = 26386u;
const WG: u32 = 256u;
// output columns of a tile: with the two halo columns either side, one column a thread
const TILE: u32 = WG - 4u;
// rows of a tile: more rows reuse more of each column's window, fewer keep more workgroups in
// flight; 4 was fastest on an H100 (2, 8 and 16 measured: ADR 0016)
const ROWS: u32 = 4u;

// Bits per sample: the vertical pass shifts by it.
override BPC: u32 = 8u;

struct Batch {
  ref_stride: u32,    // bytes between the batch's frames in the uploaded buffer
  result_stride: u32, // words between the frames' result slices
  first_slot: u32,    // ring slot of the batch's first frame
  ring: u32,          // slots in the ring
  skip: u32,          // leading frames of the batch with no frame `distance` before them
  distance: u32,      // 1, or 2 with motion_five_frame_window
  keep_from: u32,     // frames z >= keep_from copy their luma into the ring (the batch's last `distance`)
  slot_words: u32,    // words of a ring slot
}

// frame z's result slice: [0] = low word, [1] = high word of the uint64 sum of the uint32 row sums
@group(0) @binding(3) var<storage, read_write> sad: array<atomic<u32>>;
// the ring of luma copies, slot_words words a slot: slot byte 0 is the plane's first byte rounded down to a word
@group(0) @binding(4) var<storage, read_write> ring: array<u32>;
@group(0) @binding(6) var<uniform> batch: Batch;
// libvmaf's uint32 row sums of the batch's frames, height words a frame: zero between batches
@group(0) @binding(7) var<storage, read_write> row_sums: array<atomic<u32>>;

// vert[r * WG + t]: the rounded vertical blur of the difference on the tile's row r at
// column x0 - 2 + t (mirrored), so output column x0 + i reads t = i .. i + 4.
var<workgroup> vert: array<i32, ROWS * WG>;
// the tile's part of each row's uint32 sum: an atomic add per thread costs less than a tree of barriers
var<workgroup> tile_rows: array<atomic<u32>, ROWS>;

// libvmaf's reflect-101 edge: -1 -> 1, size -> size - 2.
fn mirror(i: i32, size: i32) -> i32 {
  if (i < 0) {
    return -i;
  }
  if (i >= size) {
    return 2 * size - i - 2;
  }
  return i;
}

// The luma of the earlier frame: in the batch's upload, or in the ring.
struct Source {
  in_ring: bool,
  base: u32, // byte of the plane's sample (0, 0) in its buffer
}

fn ring_sample(b: u32) -> u32 {
  return sample_in_word(ring[b >> 2u], b);
}

fn upload_sample(b: u32) -> u32 {
  return sample_in_word(ref_frame[b >> 2u], b);
}

// earlier - current sample at byte offset `at` of both planes (|.| < 2^16)
fn difference(cur_base: u32, prev: Source, at: u32) -> i32 {
  let c = upload_sample(cur_base + at);
  var p: u32;
  if (prev.in_ring) {
    p = ring_sample(prev.base + at);
  } else {
    p = upload_sample(prev.base + at);
  }
  return i32(p) - i32(c);
}

// floor((sum of taps x d + 2^(BPC-1)) / 2^BPC) for differences |d| < 2^16, whose sum needs 33
// bits: d = 2^BPC * (d >> BPC) + (d & mask), so the sum is 2^BPC * high + low with low an
// unsigned sum below 2^32 (also after adding the rounding term), and the result high + (low' >> BPC).
fn vertical_round(d0: i32, d1: i32, d2: i32, d3: i32, d4: i32) -> i32 {
  let mask = (1u << BPC) - 1u;
  let high = i32(F0) * ((d0 >> BPC) + (d4 >> BPC)) + i32(F1) * ((d1 >> BPC) + (d3 >> BPC)) + i32(F2) * (d2 >> BPC);
  let low = F0 * ((u32(d0) & mask) + (u32(d4) & mask)) + F1 * ((u32(d1) & mask) + (u32(d3) & mask)) + F2 * (u32(d2) & mask) + (1u << (BPC - 1u));
  return high + i32(low >> BPC);
}

// floor((sum of taps x y + 2^15) / 2^16), whose accumulator needs up to 40 bits (libvmaf's int64):
// y = 2^16 * (y >> 16) + (y & 0xffff), so acc = 2^16 * high + low with low < 2^32 unsigned.
fn horizontal_round(y0: i32, y1: i32, y2: i32, y3: i32, y4: i32) -> i32 {
  let high = i32(F0) * ((y0 >> 16u) + (y4 >> 16u)) + i32(F1) * ((y1 >> 16u) + (y3 >> 16u)) + i32(F2) * (y2 >> 16u);
  let low = F0 * ((u32(y0) & 0xffffu) + (u32(y4) & 0xffffu)) + F1 * ((u32(y1) & 0xffffu) + (u32(y3) & 0xffffu)) + F2 * (u32(y2) & 0xffffu);
  return high + i32((low + 32768u) >> 16u);
}

// Copies this tile's share of the words holding rows y0 .. y1 - 1 of the frame whose plane
// starts at byte `base` of the upload into ring slot `slot`. A word belongs to the strip of rows
// holding its first byte (the last strip also takes the plane's final partial word), and a
// strip's words are split evenly between its tiles, so tiles write disjoint words.
fn keep_rows(p: Plane, base: u32, slot: u32, y0: u32, y1: u32, tile: u32, tiles: u32, li: u32) {
  let row_bytes = p.stride * planes.bytes_per_sample;
  let phase = base & 3u;
  let start = (phase + y0 * row_bytes) >> 2u;
  var end = (phase + y1 * row_bytes) >> 2u;
  if (y1 == p.height) {
    end = (phase + y1 * row_bytes + 3u) >> 2u;
  }
  let share = (end - start + tiles - 1u) / tiles;
  let first = start + tile * share;
  let last = min(end, first + share);
  let src = base >> 2u;
  let dst = slot * batch.slot_words;
  for (var k = first + li; k < last; k += WG) {
    ring[dst + k] = ref_frame[src + k];
  }
}

@compute @workgroup_size(WG)
fn motion_sad(@builtin(workgroup_id) wg: vec3u, @builtin(num_workgroups) groups: vec3u, @builtin(local_invocation_index) li: u32) {
  let z = wg.z;
  let p = planes.plane[0];
  let x0 = wg.x * TILE;
  let y0 = wg.y * ROWS;
  if (y0 >= p.height || x0 >= p.width) {
    return;
  }
  let rows = min(ROWS, p.height - y0);
  let bps = planes.bytes_per_sample;
  let cur_base = z * batch.ref_stride + p.offset;
  if (z >= batch.keep_from) {
    keep_rows(p, cur_base, (batch.first_slot + z) % batch.ring, y0, y0 + rows, wg.x, groups.x, li);
  }
  if (z < batch.skip) {
    return;
  }
  var prev: Source;
  prev.in_ring = z < batch.distance;
  if (prev.in_ring) {
    prev.base = ((batch.first_slot + z + batch.ring - batch.distance) % batch.ring) * batch.slot_words * 4u + (p.offset & 3u);
  } else {
    prev.base = cur_base - batch.distance * batch.ref_stride;
  }
  let w = i32(p.width);
  let h = i32(p.height);
  let row_step = p.stride * bps;
  {
    let t = li;
    let col = i32(x0 + t) - 2;
    if (col < w + 2) {
      let col_at = u32(mirror(col, w)) * bps;
      // rows y0 - 2 .. y0 + ROWS + 1, mirrored (rows past the picture's last tile repeat its
      // mirrored rows: computed, never summed); all loads first, so they overlap
      var d: array<i32, ROWS + 4u>;
      for (var k = 0u; k < ROWS + 4u; k++) {
        let y = min(u32(mirror(i32(y0 + k) - 2, h)), p.height - 1u);
        d[k] = difference(cur_base, prev, y * row_step + col_at);
      }
      for (var r = 0u; r < ROWS; r++) {
        vert[r * WG + t] = vertical_round(d[r], d[r + 1u], d[r + 2u], d[r + 3u], d[r + 4u]);
      }
    }
  }
  workgroupBarrier();
  // WG / ROWS threads a row, each summing ROWS of its columns (consecutive threads, consecutive
  // columns), then one workgroup atomic per thread for the row's part
  let lanes = WG / ROWS;
  let r = li / lanes;
  if (r < rows) {
    var part = 0u; // wraps like libvmaf's uint32_t row sum: wrapping sums are order-independent
    for (var j = 0u; j < ROWS; j++) {
      let i = li % lanes + j * lanes;
      if (i < TILE && x0 + i < p.width) {
        let at = r * WG + i;
        part += u32(abs(horizontal_round(vert[at], vert[at + 1u], vert[at + 2u], vert[at + 3u], vert[at + 4u])));
      }
    }
    // workgroup memory starts zeroed
    if (part != 0u) {
      atomicAdd(&tile_rows[r], part);
    }
  }
  workgroupBarrier();
  if (li < rows) {
    let v = atomicLoad(&tile_rows[li]);
    if (v != 0u) {
      atomicAdd(&row_sums[z * p.height + y0 + li], v);
    }
  }
}

// One workgroup per frame of the batch with a predecessor: the frame's row sums (each already
// wrapped to uint32, as libvmaf's) into the uint64 SAD, clearing them for the next batch.
@compute @workgroup_size(WG)
fn motion_total(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_index) li: u32) {
  let z = wg.z;
  if (z < batch.skip) {
    return;
  }
  let height = planes.plane[0].height;
  var low = 0u;
  var high = 0u;
  for (var y = li; y < height; y += WG) {
    let v = atomicExchange(&row_sums[z * height + y], 0u);
    low += v;
    if (low < v) {
      high += 1u;
    }
  }
  // a carried uint64 sum of the threads' parts: order-independent
  let at = z * batch.result_stride;
  if (low != 0u) {
    let old = atomicAdd(&sad[at], low);
    if (old + low < old) {
      high += 1u;
    }
  }
  if (high != 0u) {
    atomicAdd(&sad[at + 1u], high);
  }
}
