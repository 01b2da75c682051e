// Copies a frame pair's words out (the frame buffers cannot be copied from directly), for
// the rare frame cambi scores on the CPU. Needs frame.wgsl.

struct CopyParams {
  words: u32,
  pad0: u32,
  pad1: u32,
  pad2: u32,
}

@group(0) @binding(3) var<uniform> copy: CopyParams;
@group(0) @binding(4) var<storage, read_write> copied: array<u32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) id: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let _planes = planes.count;
  for (var i = id.x; i < copy.words; i += groups.x * 256u) {
    copied[i] = ref_frame[i];
    copied[copy.words + i] = dist_frame[i];
  }
}
