// cambi's 3x3 separable mode filter (mode3: the value two of three share, else the
// smallest): horizontal modes with the first and last columns kept, then the vertical mode
// of three of them, the first and last rows kept. Words carry the code in bits 0-15 and
// the spatial mask in bit 16, which the filter keeps. The next scale is every other
// sample of every other row of the filtered picture (mask included: libvmaf decimates both).
// Needs batch.wgsl.

struct ModeParams {
  width: u32,
  height: u32,
  next_width: u32,
  write_next: u32,
}

@group(0) @binding(0) var<uniform> mo: ModeParams;
@group(0) @binding(1) var<storage, read> image: array<u32>;
@group(0) @binding(2) var<storage, read_write> filtered: array<u32>;
@group(0) @binding(3) var<storage, read_write> next: array<u32>;

fn mode3(a: u32, b: u32, c: u32) -> u32 {
  if (a == b || a == c) {
    return a;
  }
  if (b == c) {
    return b;
  }
  return min(a, min(b, c));
}

fn code_at(x: u32, y: u32) -> u32 {
  return image[image_base() + y * mo.width + x] & 0xffffu;
}

fn horizontal_mode(x: u32, y: u32) -> u32 {
  if (x == 0u || x + 1u == mo.width) {
    return code_at(x, y);
  }
  return mode3(code_at(x - 1u, y), code_at(x, y), code_at(x + 1u, y));
}

@compute @workgroup_size(16, 16)
fn mode(@builtin(global_invocation_id) id: vec3u) {
  let x = id.x;
  let y = id.y;
  frame_z = id.z;
  if (x >= mo.width || y >= mo.height) {
    return;
  }
  let i = image_base() + y * mo.width + x;
  var v = image[i] & 0xffffu;
  if (y > 0u && y + 1u < mo.height) {
    v = mode3(horizontal_mode(x, y - 1u), horizontal_mode(x, y), horizontal_mode(x, y + 1u));
  }
  let word = v | (image[i] & 0x10000u);
  filtered[i] = word;
  if (mo.write_next == 1u && (x & 1u) == 0u && (y & 1u) == 0u) {
    next[image_base() + (y >> 1u) * mo.next_width + (x >> 1u)] = word;
  }
}
