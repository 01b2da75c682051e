// cambi's spatial mask: a pixel is flat when it equals its right and lower neighbours (the
// last column and row compare only what exists); it is masked (bit 16 of its word) when
// more than `threshold` of the 7x7 pixels around it, clipped to the picture, are flat.
//
// One kernel: per workgroup, the flatness of its tile and a 3-pixel halo (read straight
// from the picture: the neighbours come from the cache) into workgroup memory, then the
// flat pixels of each column over the 7 rows of each output row, then each output's 7
// columns. The masked picture goes to another buffer (no workgroup reads a word another
// writes). With STEP 2 (cambi_high_res_speedup) only the even samples of the even rows are
// written: the decimated half-size picture that scale 0 starts from, mask included, as
// libvmaf decimates both; the full-size masked picture is never written. Needs batch.wgsl.

struct MaskParams {
  width: u32,
  height: u32,
  threshold: u32,
  pad0: u32,
}

override STEP: u32 = 1u;
// output rows per workgroup: 32 at STEP 1, 16 at STEP 2 (either way the tile fits 16 KiB)
override OUT_H: u32 = 32u;
const OUT_W: u32 = 32u;
const MASK_BIT: u32 = 0x10000u;
const MASK_PAD: u32 = 3u;

@group(0) @binding(0) var<uniform> mp: MaskParams;
@group(0) @binding(1) var<storage, read> image: array<u32>;
@group(0) @binding(2) var<storage, read_write> masked: array<u32>;

// flatness of the tile and halo: (OUT_W - 1) * STEP + 7 columns by (OUT_H - 1) * STEP + 7
// rows, 38 x 38 at STEP 1, 69 x 37 at STEP 2
var<workgroup> flat_tile: array<u32, 2553>;
// per output row, the flat pixels of each of those columns over its 7 rows
var<workgroup> column_sums: array<u32, 1216>;

fn flat_at(x: i32, y: i32, w: i32, h: i32) -> u32 {
  // nothing outside the picture is flat, which clips the 7x7 counts to it
  if (x < 0 || x >= w || y < 0 || y >= h) {
    return 0u;
  }
  let i = image_base() + u32(y * w + x);
  let v = image[i];
  var same = true;
  if (x + 1 < w) {
    same = image[i + 1u] == v;
  }
  if (y + 1 < h) {
    same = same && image[i + u32(w)] == v;
  }
  return select(0u, 1u, same);
}

@compute @workgroup_size(256)
fn mask(@builtin(local_invocation_index) li: u32, @builtin(workgroup_id) wg: vec3u) {
  frame_z = wg.z;
  let w = i32(mp.width);
  let h = i32(mp.height);
  let span_w = (OUT_W - 1u) * STEP + 2u * MASK_PAD + 1u;
  let span_h = (OUT_H - 1u) * STEP + 2u * MASK_PAD + 1u;
  let x0 = i32(wg.x * OUT_W * STEP) - i32(MASK_PAD);
  let y0 = i32(wg.y * OUT_H * STEP) - i32(MASK_PAD);
  for (var j = li; j < span_w * span_h; j += 256u) {
    flat_tile[j] = flat_at(x0 + i32(j % span_w), y0 + i32(j / span_w), w, h);
  }
  workgroupBarrier();
  for (var j = li; j < OUT_H * span_w; j += 256u) {
    let c = j % span_w;
    let r = (j / span_w) * STEP;
    var s = 0u;
    for (var k = 0u; k <= 2u * MASK_PAD; k++) {
      s += flat_tile[(r + k) * span_w + c];
    }
    column_sums[j] = s;
  }
  workgroupBarrier();
  let out_w = (mp.width + STEP - 1u) / STEP;
  let out_h = (mp.height + STEP - 1u) / STEP;
  for (var j = li; j < OUT_W * OUT_H; j += 256u) {
    let lx = j % OUT_W;
    let ly = j / OUT_W;
    let ox = wg.x * OUT_W + lx;
    let oy = wg.y * OUT_H + ly;
    if (ox < out_w && oy < out_h) {
      var s = 0u;
      for (var k = 0u; k <= 2u * MASK_PAD; k++) {
        s += column_sums[ly * span_w + lx * STEP + k];
      }
      let word = image[image_base() + oy * STEP * mp.width + ox * STEP];
      masked[image_base() + oy * out_w + ox] = word | select(0u, MASK_BIT, s > mp.threshold);
    }
  }
}
