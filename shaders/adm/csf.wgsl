// CSF weighting in libvmaf's fixed point (adm_csf / i4_adm_csf) and the masking
// filter's 1/30 and 1/15 scalings. Needs adm/params.wgsl, common/u64.wgsl, common/i64.wgsl.

fn csf_weight(theta: u32) -> u32 {
  return select(select(params.weight_d, params.weight_v, theta == 1u), params.weight_h, theta == 0u);
}

// Scale 0: int16((uint16 weight * v + round) >> shift), Q21 (h, v) or Q23 (d) weights;
// libvmaf rounds the diagonal band with 65535, not 65536.
fn csf_scale0(v: i32, theta: u32) -> i32 {
  let round = select(16384, 65535, theta == 2u);
  let shift = select(15u, 17u, theta == 2u);
  return int16_of((bitcast<i32>(csf_weight(theta)) * v + round) >> shift);
}

// Scale 0: int16((|c| * (1/30 in Q17) + 2048) >> 12), the masking filter's input.
fn masking_flt_scale0(c: i32) -> i32 {
  return int16_of((4369 * abs(c) + 2048) >> 12u);
}

// Scale 0: int16((|c| * (1/15 in Q12) + 2048) >> 12), the masker's centre term.
fn masking_centre_scale0(c: i32) -> i32 {
  return int16_of((8738 * abs(c) + 2048) >> 12u);
}

// Scales 1..3: int32((Q32 weight * v + 2^27) >> 28) of the int64 product.
fn csf_q32(v: i32, weight: u32) -> i32 {
  return bitcast<i32>(i64_sar(u64_add(i64_mul_u32(v, weight), vec2u(134217728u, 0u)), 28u).x);
}

// Scales 1..3: int32((c * |v| + (int32)(1u << 31)) >> 32), c = 1/30 or 1/15 in Q32;
// abs(INT_MIN) stays negative and the rounding term is -2^31, as in libvmaf.
fn scaled_magnitude_q32(v: i32, c: u32) -> i32 {
  let p = u64_add(i64_mul_u32(abs(v), c), vec2u(0x80000000u, 0xffffffffu));
  return bitcast<i32>(p.y);
}

const ONE_BY_30_Q32: u32 = 143165577u;
const ONE_BY_15_Q32: u32 = 286331153u;
