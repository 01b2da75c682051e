// libvmaf's ciede: per pixel, both colours to Lab (lab.wgsl) and ΔE00 (delta-e.wgsl);
// the frame's Σ ΔE00 in 32.32 fixed point, summed exactly as a u64 (u64.wgsl), so the
// sum does not depend on the order workgroups run in. One workgroup per row.
// Needs common/frame.wgsl, common/u64.wgsl, df64.wgsl, f32-math.wgsl, lab.wgsl, delta-e.wgsl.

struct Ciede {
  luma_offset: f32,   // 16 · 2^(bpc − 8)
  chroma_offset: f32, // 128 · 2^(bpc − 8)
  row_shift: u32,     // chroma row = luma row >> row_shift
  column_shift: u32,  // chroma column = luma column >> column_shift (not 4:2:2)
  quirk_422: u32,     // libvmaf's 4:2:2 reading (chroma-upsampling.ts)
  chroma_width: u32,  // libvmaf's chroma width (truncated)
  aligned_width: u32, // its chroma row length in memory (a multiple of 32)
  zero: u32,          // 0, unknown to the compiler (df64.wgsl's opaque)
  k: array<vec4f, 12>, // 24 constants as f32 pairs (lab.wgsl's K_*)
}

@group(0) @binding(3) var<storage, read_write> sum: array<atomic<u32>, 2>; // lo, hi
@group(0) @binding(4) var<uniform> ciede: Ciede;

fn df_zero() -> u32 {
  return ciede.zero;
}

const WG: u32 = 256u;
var<workgroup> partial: array<vec2u, WG>;

// (Cb, Cr) libvmaf pairs with luma sample (x, y): its upsampling repeats samples.
fn chroma_pair(reference: bool, x: u32, y: u32) -> vec2u {
  var row = y >> ciede.row_shift;
  var column = x >> ciede.column_shift;
  if (ciede.quirk_422 == 1u) {
    row = row + x / ciede.aligned_width;
    column = x % ciede.aligned_width;
    if (column >= ciede.chroma_width) {
      return vec2u(0u, 0u); // libvmaf's zero padding
    }
  }
  if (reference) {
    return vec2u(ref_sample(planes.plane[1], column, row), ref_sample(planes.plane[2], column, row));
  }
  return vec2u(dist_sample(planes.plane[1], column, row), dist_sample(planes.plane[2], column, row));
}

// v >= 0 as 32.32 fixed point (exact for v >= 2^-8, truncated below).
fn fixed_point(v: f32) -> vec2u {
  let whole = floor(v);
  return vec2u(u32((v - whole) * 4294967296.0), u32(whole));
}

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_index) li: u32) {
  let luma = planes.plane[0];
  let y = wg.x;
  if (y >= luma.height) {
    return;
  }
  var acc = vec2u(0u, 0u);
  for (var x = li; x < luma.width; x += WG) {
    let y1 = ref_sample(luma, x, y);
    let y2 = dist_sample(luma, x, y);
    let uv1 = chroma_pair(true, x, y);
    let uv2 = chroma_pair(false, x, y);
    if (y1 == y2 && all(uv1 == uv2)) {
      continue; // equal colours: ΔE00 = 0
    }
    let de = delta_e_2000(lab_of(y1, uv1.x, uv1.y), lab_of(y2, uv2.x, uv2.y));
    acc = u64_add(acc, fixed_point(de));
  }
  partial[li] = acc;
  workgroupBarrier();
  for (var s = WG / 2u; s > 0u; s = s >> 1u) {
    if (li < s) {
      partial[li] = u64_add(partial[li], partial[li + s]);
    }
    workgroupBarrier();
  }
  if (li == 0u) {
    let v = partial[0];
    let old = atomicAdd(&sum[0], v.x);
    let carry = select(0u, 1u, old + v.x < old);
    atomicAdd(&sum[1], v.y + carry);
  }
}
