// The next scale of vif's pyramid (libvmaf's subsample_rd_8/_16): blur with the next
// scale's filter and keep every other row and column, filtering only the kept samples.
// A workgroup makes OW x OH output samples: the vertical pass over the kept rows (all
// columns its outputs' horizontal taps reach) goes to workgroup memory, then the
// horizontal pass at the kept columns. Workgroup z is the frame of the batch; the output
// holds one plane per frame. Needs vif/filter.wgsl and an input (vif/input-frame.wgsl or
// vif/input-plane.wgsl).

struct DecimateParams {
  width: u32, // the scale read
  height: u32,
  out_width: u32,
  out_height: u32,
  // vertical rounding: (sum + round) >> shift (bit depth at scale 0, else 16)
  v_round: u32,
  v_shift: u32,
  half: u32, // the next scale's filter: taps either side of the centre (shaders/vif/filter.wgsl)
  pad1: u32,
  taps: array<vec4u, 5>,
}

@group(0) @binding(3) var<uniform> params: DecimateParams;
@group(0) @binding(4) var<storage, read_write> out_ref: array<u32>;
@group(0) @binding(5) var<storage, read_write> out_dis: array<u32>;

const OW: u32 = 32u;
const OH: u32 = 8u;
const SPAN: u32 = 2u * OW + 8u; // 2 OW - 1 columns plus HALF <= 4 either side
var<workgroup> rows_ref: array<u32, OH * SPAN>;
var<workgroup> rows_dis: array<u32, OH * SPAN>;

@compute @workgroup_size(32, 8)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_id) lid: vec3u, @builtin(local_invocation_index) li: u32) {
  let HALF = filter_half();
  let z = wg.z;
  let w = i32(params.width);
  let h = i32(params.height);
  let left = i32(2u * wg.x * OW) - i32(HALF);
  let span = 2u * OW - 1u + 2u * HALF;
  for (var i = li; i < OH * span; i += OW * OH) {
    let ty = i / span;
    let tx = i - ty * span;
    let oy = wg.y * OH + ty;
    if (oy >= params.out_height) {
      continue;
    }
    let x = mirror(left + i32(tx), w);
    let y = i32(2u * oy);
    var a = 0u;
    var b = 0u;
    for (var k = 0u; k <= 2u * HALF; k++) {
      let row = mirror(y + i32(k) - i32(HALF), h);
      a += tap(k) * vif_ref(z, x, row);
      b += tap(k) * vif_dis(z, x, row);
    }
    rows_ref[ty * SPAN + tx] = (a + params.v_round) >> params.v_shift;
    rows_dis[ty * SPAN + tx] = (b + params.v_round) >> params.v_shift;
  }
  workgroupBarrier();

  let ox = wg.x * OW + lid.x;
  let oy = wg.y * OH + lid.y;
  if (ox >= params.out_width || oy >= params.out_height) {
    return;
  }
  let c = lid.y * SPAN + 2u * lid.x + HALF;
  var a = tap(HALF) * rows_ref[c];
  var b = tap(HALF) * rows_dis[c];
  for (var k = 1u; k <= HALF; k++) {
    a += tap(HALF - k) * (rows_ref[c - k] + rows_ref[c + k]);
    b += tap(HALF - k) * (rows_dis[c - k] + rows_dis[c + k]);
  }
  let o = (z * params.out_height + oy) * params.out_width + ox;
  out_ref[o] = (a + 32768u) >> 16u;
  out_dis[o] = (b + 32768u) >> 16u;
}
