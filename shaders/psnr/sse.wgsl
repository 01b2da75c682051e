// Sum of squared errors of each plane, exact. One workgroup per row per plane.
// 8-bit: libvmaf sums each row in a uint32_t (wrapping), then rows into a uint64_t;
// 9- to 16-bit: every sum is 64-bit. Needs common/frame.wgsl and common/u64.wgsl.

// sse[2 * plane] = low word, sse[2 * plane + 1] = high word
@group(0) @binding(3) var<storage, read_write> sse: array<atomic<u32>>;

const WG: u32 = 256u;
var<workgroup> partial: array<vec2u, WG>;

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_index) li: u32) {
  let p = planes.plane[wg.z];
  let y = wg.x;
  if (y >= p.height) {
    return;
  }
  let wide = planes.bytes_per_sample == 2u;
  var acc = vec2u(0u, 0u);
  for (var x = li; x < p.width; x += WG) {
    let a = ref_sample(p, x, y);
    let b = dist_sample(p, x, y);
    let e = select(b - a, a - b, a > b);
    let sq = e * e; // at most 65535^2: fits 32 bits
    if (wide) {
      acc = u64_add_u32(acc, sq);
    } else {
      acc.x = acc.x + sq;
    }
  }
  partial[li] = acc;
  workgroupBarrier();
  for (var s = WG / 2u; s > 0u; s = s >> 1u) {
    if (li < s) {
      let o = partial[li + s];
      if (wide) {
        partial[li] = u64_add(partial[li], o);
      } else {
        partial[li] = vec2u(partial[li].x + o.x, 0u);
      }
    }
    workgroupBarrier();
  }
  if (li == 0u) {
    let v = partial[0];
    let old = atomicAdd(&sse[2u * wg.z], v.x);
    let carry = select(0u, 1u, old + v.x < old);
    atomicAdd(&sse[2u * wg.z + 1u], v.y + carry);
  }
}
