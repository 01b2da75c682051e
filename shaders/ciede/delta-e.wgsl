// CIEDE2000 ΔE00 in f32 with libvmaf's formula and branches (its mean hue always adds
// 2π when the hues are more than π apart; a zero chroma test on the unprimed chroma),
// k_L = 0.65, k_C = 1, k_H = 4. libvmaf mixes float and double here; f32 throughout
// changes a pixel's ΔE by a few 1e-7 relative, without bias, which the frame's mean
// does not feel (see adr/0005). Needs f32-math.wgsl.

const TWO_PI_F = 6.28318530717959;

fn pow7_f32(x: f32) -> f32 {
  let x2 = x * x;
  return x2 * x2 * x2 * x;
}

fn hue_angle(b: f32, a_prime: f32) -> f32 {
  if (b == 0.0 && a_prime == 0.0) {
    return 0.0;
  }
  let h = atan2_f32(b, a_prime);
  return select(h, h + TWO_PI_F, h < 0.0);
}

// T = 1 − 0.17·cos(H − π/6) + 0.24·cos 2H + 0.32·cos(3H + π/30) − 0.20·cos(4H − 7π/20),
// from one sin/cos pair and angle-addition formulas.
fn hue_weight(h: f32) -> f32 {
  let sc = sincos_f32(h);
  let s = sc.x;
  let c = sc.y;
  let c2 = 2.0 * c * c - 1.0;
  let s2 = 2.0 * s * c;
  let c3 = c2 * c - s2 * s;
  let s3 = s2 * c + c2 * s;
  let c4 = c2 * c2 - s2 * s2;
  let s4 = 2.0 * s2 * c2;
  // cos/sin of π/6, π/30 and 7π/20
  return 1.0 - 0.17 * (c * 0.866025403784439 + s * 0.5) + 0.24 * c2
    + 0.32 * (c3 * 0.994521895368273 - s3 * 0.104528463267653)
    - 0.2 * (c4 * 0.453990499739547 + s4 * 0.891006524188368);
}

fn delta_e_2000(c1: vec3f, c2: vec3f) -> f32 {
  let delta_l = c2.x - c1.x;
  let l_bar = (c1.x + c2.x) * 0.5;
  let chroma1 = sqrt(c1.y * c1.y + c1.z * c1.z);
  let chroma2 = sqrt(c2.y * c2.y + c2.z * c2.z);
  let c_bar7 = pow7_f32((chroma1 + chroma2) * 0.5);
  let g = 1.0 - sqrt(c_bar7 / (c_bar7 + 6103515625.0));
  let a_prime1 = c1.y + c1.y * 0.5 * g;
  let a_prime2 = c2.y + c2.y * 0.5 * g;
  let c_prime1 = sqrt(a_prime1 * a_prime1 + c1.z * c1.z);
  let c_prime2 = sqrt(a_prime2 * a_prime2 + c2.z * c2.z);
  let c_bar_prime = (c_prime1 + c_prime2) * 0.5;
  let delta_c = c_prime2 - c_prime1;
  let l50 = l_bar - 50.0;
  let s_l = 1.0 + 0.015 * l50 * l50 / sqrt(20.0 + l50 * l50);
  let s_c = 1.0 + 0.045 * c_bar_prime;
  let h1 = hue_angle(c1.z, a_prime1);
  let h2 = hue_angle(c2.z, a_prime2);
  var delta_h = 0.0;
  if (chroma1 != 0.0 && chroma2 != 0.0) {
    let d = h2 - h1;
    // libvmaf compares with the double π; PI_F is the float just above it
    if (abs(d) < PI_F) {
      delta_h = d;
    } else if (h2 <= h1) {
      delta_h = d + TWO_PI_F;
    } else {
      delta_h = d - TWO_PI_F;
    }
  }
  let delta_upper_h = 2.0 * sqrt(c_prime1 * c_prime2) * sincos_f32(delta_h * 0.5).x;
  let h_sum = h1 + h2;
  let h_bar = select(h_sum * 0.5, (h_sum + TWO_PI_F) * 0.5, abs(h1 - h2) >= PI_F);
  let t = hue_weight(h_bar);
  let s_h = 1.0 + 0.015 * c_bar_prime * t;
  let degrees = (h_bar * 57.2957795130823 - 275.0) * 0.04;
  let rotation = 60.0 * exp_f32(-(degrees * degrees)) * 0.0174532925199433;
  let c_bar_prime7 = pow7_f32(c_bar_prime);
  let r_t = -2.0 * sqrt(c_bar_prime7 / (c_bar_prime7 + 6103515625.0)) * sincos_f32(rotation).x;
  let lightness = delta_l / (0.65 * s_l);
  let chroma = delta_c / s_c;
  let hue = delta_upper_h / (4.0 * s_h);
  // rounding can push the sum a hair below 0 where C·H·R_T nearly cancels the rest
  return sqrt(max(0.0, lightness * lightness + chroma * chroma + hue * hue + r_t * chroma * hue));
}
