// Exact unsigned 64-bit arithmetic on vec2u(lo, hi): WGSL has no 64-bit integers, and
// libvmaf sums in uint64_t. Integer sums do not depend on the order of the additions,
// so reductions built from these are exact whatever order workgroups run in.

fn u64_add(a: vec2u, b: vec2u) -> vec2u {
  let lo = a.x + b.x;
  let carry = select(0u, 1u, lo < a.x);
  return vec2u(lo, a.y + b.y + carry);
}

fn u64_add_u32(a: vec2u, b: u32) -> vec2u {
  return u64_add(a, vec2u(b, 0u));
}

// Full 32x32 -> 64-bit product.
fn u64_mul_u32(a: u32, b: u32) -> vec2u {
  let a0 = a & 0xffffu;
  let a1 = a >> 16u;
  let b0 = b & 0xffffu;
  let b1 = b >> 16u;
  let p00 = a0 * b0;
  let p01 = a0 * b1;
  let p10 = a1 * b0;
  let p11 = a1 * b1;
  let mid = (p00 >> 16u) + (p01 & 0xffffu) + (p10 & 0xffffu);
  let lo = (p00 & 0xffffu) | (mid << 16u);
  let hi = p11 + (p01 >> 16u) + (p10 >> 16u) + (mid >> 16u);
  return vec2u(lo, hi);
}
