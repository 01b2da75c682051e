// atan2, sin/cos and exp in f32 with errors of a few ulp. WGSL's built-ins may be far
// less accurate (sin and cos: 2^-11 absolute), which ΔE00 cannot afford: a hue
// difference of 0.01 rad would be off by 5%. Classic range reductions and polynomials
// (the coefficients of Cephes' single-precision atanf, sinf/cosf and expf).

const PI_F = 3.14159265358979;
const HALF_PI_F = 1.57079632679490;
const QUARTER_PI_F = 0.785398163397448;

// atan(x) for x >= 0
fn atan_f32(x: f32) -> f32 {
  var base = 0.0;
  var t = x;
  if (x > 2.414213562373095) {
    base = HALF_PI_F;
    t = -1.0 / x;
  } else if (x > 0.4142135623730950) {
    base = QUARTER_PI_F;
    t = (x - 1.0) / (x + 1.0);
  }
  let z = t * t;
  return base + ((((8.05374449538e-2 * z - 1.38776856032e-1) * z + 1.99777106478e-1) * z - 3.33329491539e-1) * z * t + t);
}

fn atan2_f32(y: f32, x: f32) -> f32 {
  let ax = abs(x);
  let ay = abs(y);
  var a = HALF_PI_F;
  if (ax > 0.0) {
    a = atan_f32(ay / ax);
  }
  if (x < 0.0) {
    a = PI_F - a;
  }
  return select(a, -a, y < 0.0);
}

// (sin x, cos x): x reduced by π/4 in three parts (exact products for |x| < 2^8).
fn sincos_f32(x: f32) -> vec2f {
  let ax = abs(x);
  var j = u32(ax * 1.27323954473516);
  var q = f32(j);
  if ((j & 1u) == 1u) {
    j = j + 1u;
    q = q + 1.0;
  }
  j = j & 7u;
  let r = ((ax - q * 0.78515625) - q * 2.4187564849853515625e-4) - q * 3.77489497744594108e-8;
  let z = r * r;
  let s = r + r * z * ((-1.9515295891e-4 * z + 8.3321608736e-3) * z - 1.6666654611e-1);
  let c = 1.0 - 0.5 * z + z * z * ((2.443315711809948e-5 * z - 1.388731625493765e-3) * z + 4.166664568298827e-2);
  let swap = j == 2u || j == 6u;
  var sin_v = select(s, c, swap);
  var cos_v = select(c, s, swap);
  if (j >= 4u) {
    sin_v = -sin_v;
  }
  if (j == 2u || j == 4u) {
    cos_v = -cos_v;
  }
  return vec2f(select(sin_v, -sin_v, x < 0.0), cos_v);
}

// exp(x) for x <= 88
fn exp_f32(x: f32) -> f32 {
  if (x < -103.0) {
    return 0.0;
  }
  let n = floor(x * 1.44269504088896341 + 0.5);
  let r = (x - n * 0.693359375) + n * 2.12194440e-4;
  let z = r * r;
  let p = ((((((1.9875691500e-4 * r + 1.3981999507e-3) * r + 8.3334519073e-3) * r + 4.1665795894e-2) * r + 1.6666665459e-1) * r + 5.0000001201e-1) * z + r) + 1.0;
  return ldexp(p, i32(n));
}
