// Non-zero c-values are floats >= 0.5, hence multiples of 2^-24: as integers in units of
// 2^-24 (below 2^38) their sums are exact and do not depend on the order of the additions.
// Needs u64.wgsl.

fn c_value_fixed(bits: u32) -> vec2u {
  let m = (bits & 0x7fffffu) | 0x800000u;
  let shift = ((bits >> 23u) & 0xffu) - 126u;
  let hi = select(0u, m >> (32u - shift), shift > 0u);
  return vec2u(m << shift, hi);
}

// Adds a 64-bit value to the pair of words at `at` (low, high) with two atomics: the
// carry of the low word goes into the high one, so concurrent adds stay exact.
fn atomic_add_u64(at: u32, v: vec2u) {
  let old = atomicAdd(&results[at], v.x);
  let carry = select(0u, 1u, old + v.x < old);
  if (v.y + carry != 0u) {
    atomicAdd(&results[at + 1u], v.y + carry);
  }
}
