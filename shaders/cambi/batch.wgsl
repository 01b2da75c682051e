// The frames of a batch side by side (workgroup z = frame within the batch): frame z's
// source words, intermediates and result words lie these many words after frame 0's.
// Kernels that use it bind it at 7 and set frame_z first.

struct Batch {
  ref_words: u32,    // between frames in the reference frame buffer
  dist_words: u32,   // in the distorted frame buffer
  image_words: u32,  // in each picture buffer (images, filtered)
  values_words: u32, // in the c-value buffer
  result_words: u32, // in the results
  pad0: u32,
  pad1: u32,
  pad2: u32,
}

@group(0) @binding(7) var<uniform> batch: Batch;
var<private> frame_z: u32;

fn image_base() -> u32 {
  return frame_z * batch.image_words;
}
