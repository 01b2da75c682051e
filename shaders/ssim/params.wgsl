// Parameters every SSIM kernel takes (binding 3), and the float arithmetic they share.
// The taps and constants (GAUSSIAN, LPF_9X9, C1..C3) are generated from the TypeScript
// definitions and prepended, so the CPU and GPU use one set of numbers.

struct SsimParams {
  width: u32,        // input picture of this step
  height: u32,
  out_width: u32,    // output picture (decimated size, or SSIM map size)
  out_height: u32,
  factor: u32,       // box decimation factor
  first_row: u32,    // this scale's first row in the row sums (8 words per SSIM-map row)
  scale: u32,        // this scale's index in the result words (8 words per scale)
  tap: f32,          // box tap 1/factor² (float), or the luma sample scale (1/4, 1/16, 1/256)
  zero_bits: u32,    // 0, known only at run time: see opaque
}

@group(0) @binding(3) var<uniform> params: SsimParams;

// x, unchanged, but opaque to the compiler: an XOR with a zero it cannot see. Shader
// compilers may reassociate f32 arithmetic and fuse multiplies into adds (without this,
// lavapipe's results drifted from the CPU's floats by up to 8e-7 relative); a value passed
// through here takes part in no such rewrite, so the operations around it run as written,
// each rounded to f32.
fn opaque(x: f32) -> f32 {
  return bitcast<f32>(bitcast<u32>(x) ^ params.zero_bits);
}

// a·b rounded to f32 before it is added anywhere, as libvmaf's float products are (a fused
// multiply-add would skip that rounding).
fn rounded_mul(a: f32, b: f32) -> f32 {
  return opaque(a * b);
}

// Sums carried as an unevaluated pair hi + lo of f32 (Knuth's two-sum, its steps kept apart
// by opaque): about 48 bits, enough to stand in for libvmaf's double sums of float products
// before their final rounding to float.
fn pair_add(a: vec2f, b: f32) -> vec2f {
  let s = opaque(a.x + b);
  let bb = opaque(s - a.x);
  let err = (a.x - opaque(s - bb)) + (b - bb);
  return vec2f(s, a.y + err);
}

fn pair_add_pair(a: vec2f, b: vec2f) -> vec2f {
  let s = pair_add(a, b.x);
  return vec2f(s.x, s.y + b.y);
}

// The pair rounded to f32: libvmaf's (float) of its double sum.
fn pair_value(a: vec2f) -> f32 {
  return a.x + a.y;
}

// libvmaf's KBND_SYMMETRIC border: −1 reads 0, n reads n − 1.
fn mirror(i: i32, n: i32) -> i32 {
  if (i < 0) {
    return -1 - i;
  }
  if (i >= n) {
    return 2 * n - i - 1;
  }
  return i;
}
