// psnr_hvs kernels' shared layout. Each plane's blocks (8x8, every 7 samples) are
// numbered in libvmaf's raster order; its 64 terms per block sit at terms_at + 64·block.
// Records (float-sum.wgsl) describe what a run of terms adds to a float sum: one per
// group of GROUP_BLOCKS consecutive blocks (from groups_at), then one per block (block
// records of every plane from block_records_at, in terms order).

struct PlaneBlocks {
  blocks_x: u32,  // blocks per row
  blocks: u32,    // blocks in the plane
  terms_at: u32,  // first term (f32 index) in the terms buffer
  groups_at: u32, // first group record in the records buffer
}

struct Params {
  plane: array<PlaneBlocks, 3>,
  zero: u32,                // always 0, unknown to the compiler (exact-f32.wgsl)
  global_var_scale: f32,    // C's 1 / 63.f * 64
  quadrant_var_scale: f32,  // C's 1 / 15.f * 16
  block_records_at: u32,    // first block record
  csf: array<vec4f, 48>,    // per plane, 64 CSF weights
  mask: array<vec4f, 48>,   // per plane, 64 masking weights
}

@group(0) @binding(3) var<uniform> params: Params;

const GROUP_BLOCKS: u32 = 64u;
// A record: its largest term's binade E, tie bits, then for the running sum's binades
// e = E + 1 .. E + BINADES its increment in units of that binade's ulp; a group record's
// last word says whether libvmaf's masking is NaN in one of its blocks.
const BINADES: u32 = 25u;
const RECORD_WORDS: u32 = 28u;
const RECORD_TIES: u32 = 1u;
const RECORD_STEPS: u32 = 2u;
const RECORD_NAN: u32 = 27u; // group records: 1 when a block's sum is NaN in libvmaf
const EMPTY_RECORD: u32 = 0x80000000u; // E of terms that are all 0

fn block_record(geometry: PlaneBlocks, b: u32) -> u32 {
  return (params.block_records_at + geometry.terms_at / 64u + b) * RECORD_WORDS;
}

fn csf_of(p: u32, k: u32) -> f32 {
  return params.csf[p * 16u + k / 4u][k % 4u];
}

fn mask_of(p: u32, k: u32) -> f32 {
  return params.mask[p * 16u + k / 4u][k % 4u];
}
