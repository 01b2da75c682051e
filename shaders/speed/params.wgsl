// SpEED's sizes, options and tables for one extractor (speed_chroma or speed_temporal).
// Images are numbered by the dispatch's z, frame after frame of the batch, `images` per
// frame: chroma U ref, U dis, V ref, V dis; temporal ref, dis. Image i and i + 1 (i even)
// are scored as a pair.

struct SpeedParams {
  src_w: u32,      // plane before prescaling
  src_h: u32,
  scaled_w: u32,   // plane the anti-alias filter runs on
  scaled_h: u32,
  dec_w: u32,      // decimated by 16
  dec_h: u32,
  sub_w: u32,      // region of each shifted copy in the covariance
  sub_h: u32,
  aa_taps: u32,    // anti-alias filter: length (the kernels use AA_TAPS) and offset in `tables`
  aa_at: u32,
  lm_taps: u32,    // local-mean filter (LM_TAPS)
  lm_at: u32,
  rs_mode: u32,    // prescaling: 0 none, 1 weighted sum, 2 weighted sum / sum of weights
  rx_taps: u32,
  ry_taps: u32,
  rx_at: u32,      // per scaled column: rx_taps source columns, then (after all) their weights
  ry_at: u32,
  sample_scale: f32, // picture_copy's 1 / 2^(bpc - 8)
  image_words: u32,  // `work` words per image (see work_* below)
  use_ref_diff: u32,
  zero: u32,         // always 0: see exact-f32.wgsl
  blocks_x: u32,
  blocks_y: u32,
  weight_var_mode: u32,
  sigma_nn: f32,
  base_entropy: f32, // get_speed_score's threshold, computed by the host
  pad0: u32,
  pad1: u32,
  images: u32,        // per frame
  ref_stride: u32,    // words between the batch's frames in the frame buffers
  dist_stride: u32,
  result_stride: u32, // words between the frames' results
}

@group(0) @binding(3) var<uniform> params: SpeedParams;
@group(0) @binding(4) var<storage, read> tables: array<u32>;

const BLOCK: u32 = 5u;
const ELEMENTS: u32 = 25u;
const PAIRS: u32 = 325u;

fn frame_of(img: u32) -> u32 {
  return img / params.images;
}

// image `img`'s place among its frame's images
fn image_in_frame(img: u32) -> u32 {
  return img % params.images;
}

// a sample of the batch's frame `frame` (planes.plane describes one frame's layout)
fn batch_ref_sample(frame: u32, p: Plane, x: u32, y: u32) -> u32 {
  let b = sample_byte_index(p, x, y);
  return sample_in_word(ref_frame[frame * params.ref_stride + (b >> 2u)], b);
}

fn batch_dist_sample(frame: u32, p: Plane, x: u32, y: u32) -> u32 {
  let b = sample_byte_index(p, x, y);
  return sample_in_word(dist_frame[frame * params.dist_stride + (b >> 2u)], b);
}

fn table_f32(i: u32) -> f32 {
  return bitcast<f32>(tables[i]);
}

fn blocks() -> u32 {
  return params.blocks_x * params.blocks_y;
}

// Per image in `work`: the detail picture, the covariance sums (hi, lo), the means of the
// 25 shifted copies, the eigenvalues,
// two flags (eigenvalues regular, R regular), the solve's Q' and R, and per block the
// score terms (of the pair, in its reference image's words).
fn work_detail(img: u32) -> u32 {
  return img * params.image_words;
}
fn work_pairs(img: u32) -> u32 {
  return work_detail(img) + params.dec_w * params.dec_h;
}
fn work_means(img: u32) -> u32 {
  return work_pairs(img) + 2u * PAIRS;
}
fn work_eigenvalues(img: u32) -> u32 {
  return work_means(img) + ELEMENTS;
}
fn work_flags(img: u32) -> u32 {
  return work_eigenvalues(img) + ELEMENTS;
}
fn work_q(img: u32) -> u32 {
  return work_flags(img) + 2u;
}
fn work_r(img: u32) -> u32 {
  return work_q(img) + ELEMENTS * ELEMENTS;
}
fn work_terms(img: u32) -> u32 {
  return work_r(img) + ELEMENTS * ELEMENTS;
}

// The model could be fitted: K's eigenvalues and R's diagonal all at least 1e-6.
fn solvable(img: u32) -> bool {
  return work[work_flags(img)] != 0.0 && work[work_flags(img) + 1u] != 0.0;
}

// vif_filter1d_s's reflection at the edges (the edge sample is not repeated)
fn mirror(i: i32, n: u32) -> u32 {
  if (i < 0) {
    return u32(-i);
  }
  if (i >= i32(n)) {
    return u32(2 * i32(n) - i - 2);
  }
  return u32(i);
}
