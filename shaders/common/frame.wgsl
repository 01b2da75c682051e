// A frame pair as vq uploads it: the raw frame bytes (Y4M layout, planes back to back)
// read as 32-bit words, so 8-bit samples stay packed four to a word and 9- to 16-bit
// samples two to a word. The plane table says where each plane sits.
// Bindings 0-2 belong to the frame; kernels use 3 and up.

struct Plane {
  offset: u32,  // bytes from the start of the frame buffer
  stride: u32,  // samples between rows
  width: u32,
  height: u32,
}

struct Planes {
  plane: array<Plane, 3>,
  bytes_per_sample: u32,
  count: u32,
  pad0: u32,
  pad1: u32,
}

@group(0) @binding(0) var<storage, read> ref_frame: array<u32>;
@group(0) @binding(1) var<storage, read> dist_frame: array<u32>;
@group(0) @binding(2) var<uniform> planes: Planes;

fn sample_in_word(word: u32, byte_index: u32) -> u32 {
  if (planes.bytes_per_sample == 1u) {
    return (word >> ((byte_index & 3u) * 8u)) & 0xffu;
  }
  return (word >> ((byte_index & 2u) * 8u)) & 0xffffu;
}

fn sample_byte_index(p: Plane, x: u32, y: u32) -> u32 {
  return p.offset + (y * p.stride + x) * planes.bytes_per_sample;
}

fn ref_sample(p: Plane, x: u32, y: u32) -> u32 {
  let b = sample_byte_index(p, x, y);
  return sample_in_word(ref_frame[b >> 2u], b);
}

fn dist_sample(p: Plane, x: u32, y: u32) -> u32 {
  let b = sample_byte_index(p, x, y);
  return sample_in_word(dist_frame[b >> 2u], b);
}
