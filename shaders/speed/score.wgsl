// get_speed_score's sum on the GPU, one workgroup per pair of images of the batch
// (reference 2p, distorted 2p + 1): the per-block terms of speed/block-terms.wgsl summed in float in block
// order, over the number of blocks; 0 where exactly one picture was singular. Needs
// speed/exact-f32.wgsl, speed/params.wgsl and the bindings of speed/detail.wgsl.

// per pair of a frame: the score's bits, then 1 when either picture's covariance was
// singular; the frames' results params.result_stride words apart
@group(0) @binding(9) var<storage, read_write> scores: array<u32>;

const SCORE_WG: u32 = 256u;
const SCORE_CHUNK: u32 = 1024u;
var<workgroup> chunk: array<f32, SCORE_CHUNK>;

@compute @workgroup_size(SCORE_WG)
fn score(@builtin(local_invocation_index) li: u32, @builtin(workgroup_id) wg: vec3u) {
  let pair = wg.z;
  let ref_img = 2u * pair;
  let singular_ref = !solvable(ref_img);
  let singular_dis = !solvable(ref_img + 1u);
  let n = blocks();
  // the terms pass through workgroup memory so that thread 0's sum waits on no global load
  var sum = 0.0;
  for (var start = 0u; start < n; start += SCORE_CHUNK) {
    for (var i = li; i < SCORE_CHUNK && start + i < n; i += SCORE_WG) {
      chunk[i] = work[work_terms(ref_img) + start + i];
    }
    workgroupBarrier();
    if (li == 0u) {
      let end = min(SCORE_CHUNK, n - start);
      for (var i = 0u; i < end; i++) {
        sum = sum + chunk[i];
      }
    }
    workgroupBarrier();
  }
  if (li == 0u) {
    if (singular_ref != singular_dis) {
      sum = 0.0;
    } else {
      sum = div_rn(sum, f32(n));
    }
    let at = frame_of(ref_img) * params.result_stride + 2u * (image_in_frame(ref_img) / 2u);
    scores[at] = bitcast<u32>(sum);
    scores[at + 1u] = select(0u, 1u, singular_ref || singular_dis);
  }
}
