// cambi step 1: one picture's luma at the scoring size, in 10 bits (nearest-neighbour
// resampling by libvmaf's float-stepped indices, computed on the host), anti-dithered for
// encodes below 10 bits. Anti-dithering reads the 2x2 block to the right and below from
// the unfiltered samples, as libvmaf's in-place loop does. Needs frame.wgsl and batch.wgsl.

struct PreParams {
  width: u32,
  height: u32,
  use_ref: u32,      // 1: the reference frame, 0: the distorted one
  up: u32,           // 8 and 9 bits: shift up
  down: u32,         // 11 bits and more: round down
  round: u32,
  anti_dither: u32,
  stride_mode: u32,  // 1: libvmaf's row copy between mismatched strides (10-bit input)
  in_stride: u32,    // libvmaf's strides, in samples
  out_stride: u32,
  total: u32,        // in_stride * input height
  in_width: u32,
}

@group(0) @binding(3) var<uniform> pre: PreParams;
@group(0) @binding(4) var<storage, read> index_table: array<u32>; // source columns, then rows
@group(0) @binding(5) var<storage, read_write> image_out: array<u32>;

fn input_luma(x: u32, y: u32) -> u32 {
  let b = sample_byte_index(planes.plane[0], x, y);
  if (pre.use_ref == 1u) {
    return sample_in_word(ref_frame[frame_z * batch.ref_words + (b >> 2u)], b);
  }
  return sample_in_word(dist_frame[frame_z * batch.dist_words + (b >> 2u)], b);
}

fn ten_bit(x: u32, y: u32) -> u32 {
  if (pre.stride_mode == 1u) {
    let k = y * pre.out_stride + x;
    if (k >= pre.total) {
      return 0u;
    }
    let r = k / pre.in_stride;
    let c = k - r * pre.in_stride;
    if (c >= pre.in_width) {
      return 0u;
    }
    return input_luma(c, r);
  }
  let v = input_luma(index_table[x], index_table[pre.width + y]);
  if (pre.down > 0u) {
    return (v + pre.round) >> pre.down;
  }
  return v << pre.up;
}

@compute @workgroup_size(16, 16)
fn main(@builtin(global_invocation_id) id: vec3u) {
  let x = id.x;
  let y = id.y;
  frame_z = id.z;
  if (x >= pre.width || y >= pre.height) {
    return;
  }
  var v = ten_bit(x, y);
  if (pre.anti_dither == 1u) {
    let right = x + 1u < pre.width;
    let below = y + 1u < pre.height;
    if (right && below) {
      v = (v + ten_bit(x + 1u, y) + ten_bit(x, y + 1u) + ten_bit(x + 1u, y + 1u)) >> 2u;
    } else if (below) {
      v = (v + ten_bit(x, y + 1u)) >> 1u;
    } else if (right) {
      v = (v + ten_bit(x + 1u, y)) >> 1u;
    }
  }
  image_out[image_base() + y * pre.width + x] = v;
}
