// cambi refuses luma above the bit depth's maximum, as libvmaf does: the first offending
// sample (lowest row-major index) is reported as 0xffffffff - index. Needs frame.wgsl and batch.wgsl.

struct CheckParams {
  width: u32,
  height: u32,
  max_value: u32,
  use_ref: u32,
  bad_word: u32,
  pad0: u32,
  pad1: u32,
  pad2: u32,
}

@group(0) @binding(3) var<uniform> check: CheckParams;
@group(0) @binding(4) var<storage, read_write> results: array<atomic<u32>>;

@compute @workgroup_size(16, 16)
fn main(@builtin(global_invocation_id) id: vec3u) {
  if (id.x >= check.width || id.y >= check.height) {
    return;
  }
  let b = sample_byte_index(planes.plane[0], id.x, id.y);
  var v = sample_in_word(dist_frame[id.z * batch.dist_words + (b >> 2u)], b);
  if (check.use_ref == 1u) {
    v = sample_in_word(ref_frame[id.z * batch.ref_words + (b >> 2u)], b);
  }
  if (v > check.max_value) {
    atomicMax(&results[id.z * batch.result_words + check.bad_word], 0xffffffffu - (id.y * check.width + id.x));
  }
}
