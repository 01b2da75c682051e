// Where a batch's frames sit (workgroup z = frame of the batch): bytes between frames in
// the uploaded reference and distorted buffers, words between frames' result slices.
// Fixed while a runner runs, so one small uniform per layout, written once.

struct Batch {
  ref_stride: u32,
  dist_stride: u32,
  result_stride: u32,
  pad0: u32,
}

@group(0) @binding(6) var<uniform> batch: Batch;
