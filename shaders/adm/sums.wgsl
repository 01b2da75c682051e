// The scale sums adm reads back: uint64/int64 values as (low, high) words in the frame's
// result buffer, added with a carry so that the total is exact in any order.
// Needs common/u64.wgsl.

const SUM_WG: u32 = 64u;

// per frame of the batch (frames.sums_words apart): [scale][den, num, aim][h, v, d], two words each
@group(0) @binding(9) var<storage, read_write> sums: array<atomic<u32>>;

// the frame (in the batch) whose sums add_sum adds to
var<private> sums_frame: u32;

fn add_sum(word: u32, v: vec2u) {
  let at = sums_frame * frames.sums_words + word;
  let old = atomicAdd(&sums[at], v.x);
  let carry = select(0u, 1u, old + v.x < old);
  atomicAdd(&sums[at + 1u], v.y + carry);
}

// libvmaf's rounding term of a shift: 2^(shift - 1), 0 for no shift ((uint32_t)pow(2, -1)).
fn half_of(shift: u32) -> u32 {
  if (shift == 0u) {
    return 0u;
  }
  return 1u << (shift - 1u);
}
