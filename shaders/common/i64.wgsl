// Exact signed 64-bit arithmetic on vec2u(lo, hi) in two's complement: libvmaf's int64_t
// steps (products of int32 values, rounding shifts, sums that wrap like the C code).
// Needs common/u64.wgsl: u64_add adds int64 values too (modulo 2^64).

// C's (int16_t) of an int32: keeps the low 16 bits, sign-extended.
fn int16_of(x: i32) -> i32 {
  return (x << 16u) >> 16u;
}

fn i64_from_i32(x: i32) -> vec2u {
  return vec2u(bitcast<u32>(x), select(0u, 0xffffffffu, x < 0));
}

fn i64_neg(a: vec2u) -> vec2u {
  return vec2u(0u - a.x, 0u - a.y - select(0u, 1u, a.x != 0u));
}

fn i64_is_neg(a: vec2u) -> bool {
  return (a.y >> 31u) != 0u;
}

// |x| as uint32: |INT_MIN| = 2^31
fn abs_u32(x: i32) -> u32 {
  let u = bitcast<u32>(x);
  return select(u, 0u - u, x < 0);
}

// Full int32 x int32 product.
fn i64_mul(a: i32, b: i32) -> vec2u {
  let m = u64_mul_u32(abs_u32(a), abs_u32(b));
  return select(m, i64_neg(m), (a < 0) != (b < 0));
}

// Full int32 x uint32 product.
fn i64_mul_u32(a: i32, b: u32) -> vec2u {
  let m = u64_mul_u32(abs_u32(a), b);
  return select(m, i64_neg(m), a < 0);
}

// Arithmetic shift right (C's >> on int64), 0 <= n < 64.
fn i64_sar(a: vec2u, n: u32) -> vec2u {
  let hi = bitcast<i32>(a.y);
  if (n == 0u) {
    return a;
  }
  if (n < 32u) {
    return vec2u((a.x >> n) | (a.y << (32u - n)), bitcast<u32>(hi >> n));
  }
  return vec2u(bitcast<u32>(hi >> (n - 32u)), bitcast<u32>(hi >> 31u));
}

// Logical shift right (uint64), 0 <= n < 64.
fn u64_shr(a: vec2u, n: u32) -> vec2u {
  if (n == 0u) {
    return a;
  }
  if (n < 32u) {
    return vec2u((a.x >> n) | (a.y << (32u - n)), a.y >> n);
  }
  return vec2u(a.y >> (n - 32u), 0u);
}

// Shift left, 0 <= n < 64 (bits past 2^64 are lost).
fn u64_shl(a: vec2u, n: u32) -> vec2u {
  if (n == 0u) {
    return a;
  }
  if (n < 32u) {
    return vec2u(a.x << n, (a.y << n) | (a.x >> (32u - n)));
  }
  return vec2u(0u, a.x << (n - 32u));
}

// uint64 x uint32 modulo 2^64 (C's uint64_t product).
fn u64_mul_wrap(a: vec2u, b: u32) -> vec2u {
  let p = u64_mul_u32(a.x, b);
  return vec2u(p.x, p.y + a.y * b);
}

fn u64_sub(a: vec2u, b: vec2u) -> vec2u {
  return vec2u(a.x - b.x, a.y - b.y - select(0u, 1u, a.x < b.x));
}

fn u64_gt(a: vec2u, b: vec2u) -> bool {
  return a.y > b.y || (a.y == b.y && a.x > b.x);
}

fn u64_ge(a: vec2u, b: vec2u) -> bool {
  return a.y > b.y || (a.y == b.y && a.x >= b.x);
}

// Number of significant bits (0 for 0).
fn u64_bit_length(a: vec2u) -> u32 {
  if (a.y != 0u) {
    return 64u - countLeadingZeros(a.y);
  }
  return 32u - countLeadingZeros(a.x);
}
