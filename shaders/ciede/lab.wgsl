// libvmaf's ciede colour conversion, Y'CbCr → R'G'B' (BT.709) → linear RGB → XYZ (D65)
// → L*a*b*, in f32 pairs (df64.wgsl), so that L, a and b round to the floats libvmaf
// gets from its double arithmetic. The powers come from f32 estimates refined by Newton
// steps carried in f32 pairs: x^2.4 solves z^5 = x^12, the cube root w^3 = t.
// The constants (libvmaf's doubles, split into pairs) are in `ciede.k` (ciede.wgsl).

// Indices into the constant table.
const K_LUMA_GAIN = 0u;
const K_CHROMA_GAIN = 1u;
const K_R_V = 2u;
const K_G_U = 3u;
const K_G_V = 4u;
const K_B_U = 5u;
const K_SRGB_KNEE = 6u;
const K_SRGB_OFFSET = 7u;
const K_SRGB_GAIN = 8u;
const K_SRGB_LINEAR_GAIN = 9u;
const K_XYZ = 10u; // 3x3, row-major
const K_WHITE_X = 19u;
const K_WHITE_Z = 20u;
const K_LAB_EPSILON = 21u;
const K_LAB_KAPPA = 22u;
const K_ONE_116TH = 23u;

fn lab_constant(i: u32) -> df {
  let v = ciede.k[i >> 1u];
  return select(v.xy, v.zw, (i & 1u) == 1u);
}

// sRGB decoding of one component (libvmaf's rgb_to_xyz_map).
fn linearize(c: df) -> df {
  if (!df_gt(c, lab_constant(K_SRGB_KNEE))) {
    return df_mul(c, lab_constant(K_SRGB_LINEAR_GAIN));
  }
  let x = df_mul(df_add(c, lab_constant(K_SRGB_OFFSET)), lab_constant(K_SRGB_GAIN));
  let x2 = df_mul(x, x);
  let x4 = df_mul(x2, x2);
  let x12 = df_mul(df_mul(x4, x4), x4);
  var z = pow(x.x, 2.4);
  let e2 = z * z;
  let e4 = e2 * e2;
  z = z - (e4 * z - x12.x) / (5.0 * e4); // f32 Newton step: the estimate may be a few ulp off
  let z2 = two_prod(z, z);
  let z4 = df_mul(z2, z2);
  let residual = df_add(df_mul_f(z4, z), df_neg(x12));
  return two_sum(z, -residual.x / (5.0 * z4.x));
}

// CIE Lab's f(t), rounded to float as libvmaf's xyz_to_lab_map returns it.
fn lab_f(t: df) -> f32 {
  if (!df_gt(t, lab_constant(K_LAB_EPSILON))) {
    return df_mul(df_add(df_mul(lab_constant(K_LAB_KAPPA), t), df_from(16.0)), lab_constant(K_ONE_116TH)).x;
  }
  var w = pow(t.x, 1.0 / 3.0);
  let w2 = w * w;
  w = w - (w2 * w - t.x) / (3.0 * w2);
  let residual = df_add(df_mul_f(two_prod(w, w), w), df_neg(t));
  return two_sum(w, -residual.x / (3.0 * w * w)).x;
}

fn xyz_row(r: df, g: df, b: df, row: u32) -> df {
  let i = K_XYZ + 3u * row;
  return df_add(df_add(df_mul(r, lab_constant(i)), df_mul(g, lab_constant(i + 1u))), df_mul(b, lab_constant(i + 2u)));
}

// L, a, b of the sample triple (y, u, v).
fn lab_of(y: u32, u: u32, v: u32) -> vec3f {
  // sample − offset is an exact f32 (samples have at most 16 bits)
  let yn = df_mul_f(lab_constant(K_LUMA_GAIN), f32(y) - ciede.luma_offset);
  let un = df_mul_f(lab_constant(K_CHROMA_GAIN), f32(u) - ciede.chroma_offset);
  let vn = df_mul_f(lab_constant(K_CHROMA_GAIN), f32(v) - ciede.chroma_offset);
  let r = linearize(df_add(yn, df_mul(lab_constant(K_R_V), vn)));
  let g = linearize(df_add(df_add(yn, df_mul(lab_constant(K_G_U), un)), df_mul(lab_constant(K_G_V), vn)));
  let b = linearize(df_add(yn, df_mul(lab_constant(K_B_U), un)));
  let fx = lab_f(df_mul(xyz_row(r, g, b, 0u), lab_constant(K_WHITE_X)));
  let fy = lab_f(xyz_row(r, g, b, 1u));
  let fz = lab_f(df_mul(xyz_row(r, g, b, 2u), lab_constant(K_WHITE_Z)));
  return vec3f(
    df_add(two_prod(116.0, fy), df_from(-16.0)).x,
    df_mul_f(two_sum(fx, -fy), 500.0).x,
    df_mul_f(two_sum(fy, -fz), 200.0).x,
  );
}
