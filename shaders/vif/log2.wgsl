// libvmaf's fixed-point log2 of vif (log2_32, log2_64): log2(x) * 2048 from the top 16
// bits m of x, looked up in round(log2f(m) * 2048), plus 2048 per bit dropped. x >= 2^17.
// The table holds m in [32768, 65535] (all a normalised lookup reads), two entries a word.

@group(0) @binding(5) var<storage, read> log2_table: array<u32>;

fn log2_entry(m: u32) -> u32 {
  let i = m - 32768u;
  return (log2_table[i >> 1u] >> ((i & 1u) * 16u)) & 0xffffu;
}

fn vif_log2_32(x: u32) -> u32 {
  let k = firstLeadingBit(x) - 15u;
  return log2_entry(x >> k) + 2048u * k;
}

fn vif_log2_64(x: vec2u) -> u32 {
  if (x.y == 0u) {
    return vif_log2_32(x.x);
  }
  let k = firstLeadingBit(x.y) + 17u; // bits dropped: 17 to 48
  var m: u32;
  if (k < 32u) {
    m = (x.x >> k) | (x.y << (32u - k));
  } else {
    m = x.y >> (k - 32u);
  }
  return log2_entry(m) + 2048u * k;
}
