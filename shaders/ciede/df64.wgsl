// Double-float ("f32 pair") arithmetic: a value is hi + lo with |lo| <= ulp(hi)/2, about
// 48 significant bits. WGSL has no f64; ciede's colour conversion needs more than f32.
// Sums use Knuth's two-sum (additions only, exact in IEEE f32). Products need the exact
// error of an f32 product: fma(a, b, -a*b) where the GPU's fma is fused (probed at init:
// FUSED_FMA), else Veltkamp/Dekker splitting.
//
// Shader compilers treat f32 arithmetic as real arithmetic where no "exact" decoration
// forbids it (WGSL has none): Mesa folds (a + b) - a to b, which erases the error terms
// these formulas compute. opaque() hides a value from such rewriting: it XORs its bits
// with a zero the compiler cannot know (the including kernel's df_zero(), read from a
// buffer at run time).

override FUSED_FMA: bool = true;

fn opaque(x: f32) -> f32 {
  return bitcast<f32>(bitcast<u32>(x) ^ df_zero());
}

alias df = vec2f;

fn df_from(a: f32) -> df {
  return df(a, 0.0);
}

fn two_sum(a: f32, b: f32) -> df {
  let s = opaque(a + b);
  let bb = opaque(s - a);
  return df(s, (a - (s - bb)) + (b - bb));
}

// |a| >= |b| (or a == 0)
fn quick_two_sum(a: f32, b: f32) -> df {
  let s = opaque(a + b);
  return df(s, b - (s - a));
}

fn split(a: f32) -> vec2f {
  let c = opaque(4097.0 * a); // 2^12 + 1
  let hi = c - opaque(c - a);
  return vec2f(hi, a - hi);
}

fn two_prod(a: f32, b: f32) -> df {
  let p = opaque(a * b);
  if (FUSED_FMA) {
    return df(p, fma(a, b, -p));
  }
  let sa = split(a);
  let sb = split(b);
  return df(p, ((sa.x * sb.x - p) + sa.x * sb.y + sa.y * sb.x) + sa.y * sb.y);
}

fn df_neg(a: df) -> df {
  return -a;
}

fn df_add(a: df, b: df) -> df {
  let s = two_sum(a.x, b.x);
  return quick_two_sum(s.x, s.y + (a.y + b.y));
}

fn df_mul(a: df, b: df) -> df {
  let p = two_prod(a.x, b.x);
  return quick_two_sum(p.x, p.y + (a.x * b.y + a.y * b.x));
}

fn df_mul_f(a: df, b: f32) -> df {
  let p = two_prod(a.x, b);
  return quick_two_sum(p.x, p.y + a.y * b);
}

fn df_gt(a: df, b: df) -> bool {
  return a.x > b.x || (a.x == b.x && a.y > b.y);
}
