// cambi's spatial mask: a pixel is flat when it equals its right and lower neighbours (the
// last column and row compare only what exists); it is masked (bit 16 of its word) when
// more than `threshold` of the 7x7 pixels around it, clipped to the picture, are flat.

struct MaskParams {
  width: u32,
  height: u32,
  threshold: u32,
  pad0: u32,
}

const MASK_BIT: u32 = 0x10000u;
const MASK_TILE: u32 = 16u;
const MASK_PAD: u32 = 3u;
const MASK_SPAN: u32 = 22u; // MASK_TILE + 2 * MASK_PAD

@group(0) @binding(0) var<uniform> mp: MaskParams;
@group(0) @binding(1) var<storage, read_write> image: array<u32>;
@group(0) @binding(2) var<storage, read_write> flat_map: array<u32>;

var<workgroup> column_sums: array<u32, 352>; // 16 rows x 22 columns: flat pixels over 7 rows

@compute @workgroup_size(16, 16)
fn flatness(@builtin(global_invocation_id) id: vec3u) {
  let x = id.x;
  let y = id.y;
  let w = mp.width;
  if (x >= w || y >= mp.height) {
    return;
  }
  let i = y * w + x;
  let v = image[i];
  var flat = true;
  if (x + 1u < w) {
    flat = image[i + 1u] == v;
  }
  if (y + 1u < mp.height) {
    flat = flat && image[i + w] == v;
  }
  flat_map[i] = select(0u, 1u, flat);
}

@compute @workgroup_size(16, 16)
fn mask(@builtin(local_invocation_id) lid: vec3u, @builtin(workgroup_id) wg: vec3u) {
  let w = mp.width;
  let h = mp.height;
  let x0 = i32(wg.x * MASK_TILE) - i32(MASK_PAD);
  let y = wg.y * MASK_TILE + lid.y;
  // vertical sums of 7 rows for the tile's 22 columns
  for (var c = lid.x; c < MASK_SPAN; c += MASK_TILE) {
    let x = x0 + i32(c);
    var s = 0u;
    if (x >= 0 && x < i32(w)) {
      let first = max(i32(y) - i32(MASK_PAD), 0);
      let last = min(i32(y) + i32(MASK_PAD), i32(h) - 1);
      for (var r = first; r <= last; r++) {
        s += flat_map[u32(r) * w + u32(x)];
      }
    }
    column_sums[lid.y * MASK_SPAN + c] = s;
  }
  workgroupBarrier();
  let x = wg.x * MASK_TILE + lid.x;
  if (x >= w || y >= h) {
    return;
  }
  var s = 0u;
  for (var c = 0u; c < 7u; c++) {
    s += column_sums[lid.y * MASK_SPAN + lid.x + c];
  }
  if (s > mp.threshold) {
    let i = y * w + x;
    image[i] = image[i] | MASK_BIT;
  }
}
