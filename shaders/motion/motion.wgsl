// libvmaf's integer motion on the reference luma (plane 0), exactly. Needs common/frame.wgsl.
//
// libvmaf blurs the difference of two pictures with the Q16 taps [3571, 16004, 26386, 16004, 3571]
// (vertical pass rounded with (acc + 2^(bpc-1)) >> bpc, horizontal one with (acc + 2^15) >> 16,
// reflect-101 edges) and sums |.| (uint32 per row, uint64 overall). The vertical pass is linear
// and exact in integers, so each picture's unrounded column sums are computed once, kept in a
// ring of buffers, and subtracted from a later picture's: the history never leaves the GPU.
//
// Both entry points take a batch of consecutive frames: one workgroup per row (x) and frame
// of the batch (z); frame z's columns sit in ring slot (first_slot + z) % ring.
//   blur_columns  every frame's column sums into its ring slot
//   motion_sad    (a later pass) each frame's column sums again, their difference with those
//                 of the frame `distance` before it (from the ring), the horizontal pass, |.|
//                 and the exact SAD; the first `skip` frames have no such frame

const F0: u32 = 3571u;
const F1: u32 = 16004u;
const F2: u32 = 26386u;
const WG: u32 = 256u;

// Bits per sample: the vertical pass shifts by it.
override BPC: u32 = 8u;

struct Batch {
  ref_stride: u32,    // bytes between the batch's frames in the uploaded buffer
  result_stride: u32, // words between the frames' result slices
  first_slot: u32,    // ring slot of the batch's first frame
  ring: u32,          // slots in the ring
  skip: u32,          // leading frames of the batch with no frame `distance` before them
  distance: u32,      // 1, or 2 with motion_five_frame_window
}

// frame z's result slice: [0] = low word, [1] = high word of the uint64 sum of the uint32 row sums
@group(0) @binding(3) var<storage, read_write> sad: array<atomic<u32>>;
// the ring of column sums, width x height words a slot (read in motion_sad, written in blur_columns)
@group(0) @binding(4) var<storage, read> ring_read: array<u32>;
@group(0) @binding(5) var<storage, read_write> ring_write: array<u32>;
@group(0) @binding(6) var<uniform> batch: Batch;

// rounded[t]: the rounded vertical blur of the difference at column x0 - 2 + t (mirrored),
// so output column x0 + i reads rounded[i .. i + 4].
var<workgroup> rounded: array<i32, WG + 4u>;
// the row's uint32 sum: an atomic add per thread costs less than a tree of barriers
var<workgroup> row_total: atomic<u32>;

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

// Sum of taps x luma over rows y - 2 .. y + 2: the taps sum to 2^16, so even 16-bit samples
// (any value of the 16-bit container) stay below 2^32, and every partial sum is smaller.
fn column_sum(p: Plane, x: u32, y: u32) -> u32 {
  let h = i32(p.height);
  let r = i32(y);
  let s0 = ref_sample(p, x, u32(mirror(r - 2, h)));
  let s1 = ref_sample(p, x, u32(mirror(r - 1, h)));
  let s2 = ref_sample(p, x, y);
  let s3 = ref_sample(p, x, u32(mirror(r + 1, h)));
  let s4 = ref_sample(p, x, u32(mirror(r + 2, h)));
  return F0 * (s0 + s4) + F1 * (s1 + s3) + F2 * s2;
}

// floor((prev - cur + 2^(BPC-1)) / 2^BPC) for column sums up to 2^32: the difference needs 33
// bits, so each sum is split at bit BPC; the low parts' rounded quotient is -1, 0 or 1.
fn vertical_round(prev: u32, cur: u32) -> i32 {
  let mask = (1u << BPC) - 1u;
  let high = i32(prev >> BPC) - i32(cur >> BPC);
  let low = i32(prev & mask) - i32(cur & mask) + i32(1u << (BPC - 1u));
  return high + (low >> BPC);
}

// floor((sum of taps x y + 2^15) / 2^16), whose accumulator needs up to 40 bits (libvmaf's int64):
// y = 2^16 * (y >> 16) + (y & 0xffff), so acc = 2^16 * high + low with low < 2^32 unsigned.
fn horizontal_round(y0: i32, y1: i32, y2: i32, y3: i32, y4: i32) -> i32 {
  let high = i32(F0) * ((y0 >> 16u) + (y4 >> 16u)) + i32(F1) * ((y1 >> 16u) + (y3 >> 16u)) + i32(F2) * (y2 >> 16u);
  let low = F0 * ((u32(y0) & 0xffffu) + (u32(y4) & 0xffffu)) + F1 * ((u32(y1) & 0xffffu) + (u32(y3) & 0xffffu)) + F2 * (u32(y2) & 0xffffu);
  return high + i32((low + 32768u) >> 16u);
}

// Frame z's luma plane in the batch.
fn luma(z: u32) -> Plane {
  var p = planes.plane[0];
  p.offset += z * batch.ref_stride;
  return p;
}

// Word of row y's first column sum in ring slot `slot`.
fn ring_row(p: Plane, slot: u32, y: u32) -> u32 {
  return (slot * p.height + y) * p.width;
}

@compute @workgroup_size(WG)
fn blur_columns(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_index) li: u32) {
  let p = luma(wg.z);
  let y = wg.x;
  if (y >= p.height) {
    return;
  }
  let row = ring_row(p, (batch.first_slot + wg.z) % batch.ring, y);
  for (var x = li; x < p.width; x += WG) {
    ring_write[row + x] = column_sum(p, x, y);
  }
}

@compute @workgroup_size(WG)
fn motion_sad(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_index) li: u32) {
  let z = wg.z;
  let p = luma(z);
  let y = wg.x;
  if (y >= p.height || z < batch.skip) {
    return;
  }
  let w = i32(p.width);
  let prev = ring_row(p, (batch.first_slot + z + batch.ring - batch.distance) % batch.ring, y);
  var row_sad = 0u; // libvmaf's uint32_t row sum: wraps, and wrapping sums are order-independent
  for (var x0 = 0u; x0 < p.width; x0 += WG) {
    for (var t = li; t < WG + 4u; t += WG) {
      let col = i32(x0 + t) - 2;
      if (col < w + 2) {
        let m = u32(mirror(col, w));
        // recomputed from the luma (a few bytes a column) rather than read back from the ring
        rounded[t] = vertical_round(ring_read[prev + m], column_sum(p, m, y));
      }
    }
    workgroupBarrier();
    if (x0 + li < p.width) {
      let v = horizontal_round(rounded[li], rounded[li + 1u], rounded[li + 2u], rounded[li + 3u], rounded[li + 4u]);
      row_sad += u32(abs(v));
    }
    workgroupBarrier();
  }
  // workgroup memory starts zeroed
  if (row_sad != 0u) {
    atomicAdd(&row_total, row_sad);
  }
  workgroupBarrier();
  if (li == 0u) {
    // the row sum into the uint64 total; the carry makes the sum independent of row order
    let at = z * batch.result_stride;
    let v = atomicLoad(&row_total);
    let old = atomicAdd(&sad[at], v);
    if (old + v < old) {
      atomicAdd(&sad[at + 1u], 1u);
    }
  }
}
