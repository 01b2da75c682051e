// Where frame z of a batch keeps its data: every kernel covers all frames of a batch at
// once (the dispatch's z), each frame with its own intermediates. Fixed for a run, filled
// by packages/adm/src/adm-gpu.ts (kept apart from AdmParams, whose fields are parsed).
struct AdmFrames {
  // words between frames: uploaded frames (reference, distorted), the result words
  ref_words: u32,
  dist_words: u32,
  sums_words: u32,
  // elements between frames of `pyr`, of the bands (`det`) and of `den_rows`
  pyr_words: u32,
  band_words: u32,
  rows_words: u32,
  pad0: u32,
  pad1: u32,
}

@group(0) @binding(10) var<uniform> frames: AdmFrames;

// One scale's constants for every adm kernel, filled by packages/adm/src/adm-gpu-params.ts
// (which reads the field order from this struct: keep every field a u32; signed values
// are bitcast where they are used).
struct AdmParams {
  // DWT: input size, band (output) size, band capacity of `det` (elements per band)
  in_w: u32,
  in_h: u32,
  w: u32,
  h: u32,
  band_cap: u32,
  // offsets in `pyr` of this scale's input a bands (scales 1..3) and of its output a bands
  src_ref: u32,
  src_dis: u32,
  dst_ref: u32,
  dst_dis: u32,
  // DWT rounding: vertical and horizontal (scales 1..3); scale 0 uses v_round, v_shift and centre
  v_round: u32,
  v_shift: u32,
  h_round: u32,
  h_shift: u32,
  centre: u32,
  // libvmaf's x86 kernels read unmirrored taps at the last column (1 = they do at this scale)
  overshoot: u32,
  low_only: u32,
  // what the distorted hi row's overshoot reads at scales 2..3: the previous scale's
  // temporary row segment `prev_seg` (0 lo ref, 1 hi ref, 2 lo dis, 3 hi dis), last row
  // (prev_row), column prev_col + 0 or 1; the previous scale's input (a bands at
  // prev_src_ref / prev_src_dis, prev_in_w x prev_in_h) and vertical rounding
  has_prev: u32,
  prev_row: u32,
  prev_seg: u32,
  prev_col: u32,
  prev_src_ref: u32,
  prev_src_dis: u32,
  prev_in_w: u32,
  prev_in_h: u32,
  prev_v_round: u32,
  prev_v_shift: u32,
  // at the coarser scale whose last temporary row scale 0's hi rows read past their end
  // (in the next frame): its segment and column there
  stale_seg: u32,
  stale_col: u32,
  // regions: decoupled/CSF (filter), scored (den), walked by the masking (rows, cols)
  f_left: u32,
  f_top: u32,
  f_right: u32,
  f_bottom: u32,
  s_left: u32,
  s_top: u32,
  s_right: u32,
  s_bottom: u32,
  m_row0: u32,
  m_row1: u32,
  m_col0: u32,
  m_col1: u32,
  // decoupling: the enhancement gain as a double m * 2^-gain_shift (m = gain_hi * 2^32 + gain_lo)
  gain_hi: u32,
  gain_lo: u32,
  gain_shift: u32,
  // cos(1 degree)^2 as the float cos_m * 2^cos_e
  cos_m: u32,
  cos_e: u32,
  // CSF weights h, v, d: uint16 (Q21, Q21, Q23) at scale 0, Q32 at scales 1..3
  weight_h: u32,
  weight_v: u32,
  weight_d: u32,
  skip_aim: u32,
  // denominator shifts
  den_square_shift: u32,
  den_cube_shift: u32,
  den_row_shift: u32,
  // masking shifts: cubes (h/v and d) and rows
  cube_hv: u32,
  cube_d: u32,
  row_shift: u32,
  // first result word of this scale: [den h v d, num h v d, aim h v d], uint64 each
  sums_base: u32,
}
