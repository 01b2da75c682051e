// speed_temporal keeps the luma words of a batch's last frame for the next batch (the frame
// buffers are not copy sources). Runs after the batch's SpEED kernels, which read the
// previous copy.

@group(0) @binding(0) var<storage, read> ref_frame: array<u32>;
@group(0) @binding(1) var<storage, read> dist_frame: array<u32>;
@group(0) @binding(7) var<storage, read_write> prev_ref: array<u32>;
@group(0) @binding(8) var<storage, read_write> prev_dist: array<u32>;

@compute @workgroup_size(256)
fn keep_luma(@builtin(global_invocation_id) id: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let words = arrayLength(&prev_ref);
  for (var i = id.x; i < words; i += groups.x * 256u) {
    prev_ref[i] = ref_frame[i];
    prev_dist[i] = dist_frame[i];
  }
}
