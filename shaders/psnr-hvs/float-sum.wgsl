// psnr_hvs, kernel 2: each plane's terms summed as libvmaf does, s = float(s + t) term
// by term in raster order, exactly, without walking every term. While s stays in one
// binade [2^e, 2^(e+1)) its ulp u is fixed and float(s + t) = s + round(t / u)·u (ties to
// even), so a group of terms adds a whole number of ulps that does not depend on s
// (terms.wgsl counted them per binade): s jumps a group at a time. A group whose jump
// would leave the binade, has a tie, or has a term ≥ 2^e (and the first, from s = 0) is
// taken block by block, the same way, and a block that cannot be jumped term by term.
// One workgroup per plane (z): its invocations load records into workgroup memory, a
// tile at a time, and invocation 0 walks them (global loads' latency would dominate).
// Needs params.wgsl.

// 0: every term one by one (the plain sequential sum, for tests and measurements)
override JUMP_GROUPS: u32 = 1u;

@group(0) @binding(4) var<storage, read> terms: array<vec4f>;
@group(0) @binding(5) var<storage, read> records: array<u32>;
// per plane: the float sum's bits, then how many blocks were summed term by term, then
// 1 where libvmaf's sum is NaN
@group(0) @binding(6) var<storage, read_write> results: array<u32, 9>;

// s + terms[first .. first + count) one by one (count a multiple of 64).
fn sum_terms(s_in: f32, first: u32, count: u32) -> f32 {
  var s = s_in;
  for (var i = first / 4u; i < (first + count) / 4u; i += 16u) {
    // loads first, so they are in flight together; then the dependent adds
    var v: array<vec4f, 16>;
    for (var k = 0u; k < 16u; k++) {
      v[k] = terms[i + k];
    }
    for (var k = 0u; k < 16u; k++) {
      s = s + v[k].x;
      s = s + v[k].y;
      s = s + v[k].z;
      s = s + v[k].w;
    }
  }
  return s;
}

const TILE_WORDS: u32 = 64u * RECORD_WORDS; // 64 records

var<workgroup> group_tile: array<u32, TILE_WORDS>;
var<workgroup> block_tile: array<u32, TILE_WORDS>;
var<workgroup> needs_blocks: u32;

// Moves s past the terms of the record at `at` if they are all 0 or s can jump them;
// false when they must be summed term by term.
fn jump(s: ptr<function, f32>, tile: ptr<workgroup, array<u32, TILE_WORDS>>, at: u32) -> bool {
  let top = (*tile)[at];
  if (top == EMPTY_RECORD) {
    return true; // adds 0
  }
  let bits = bitcast<u32>(*s);
  let field = bits >> 23u;
  if (field == 0u) {
    return false; // s = 0: the plane's first terms
  }
  let j = i32(field) - 127 - bitcast<i32>(top) - 1; // binade of s relative to the record's
  if (j >= i32(BINADES)) {
    return true; // every term < u / 2: adds nothing
  }
  if (j < 0 || (((*tile)[at + RECORD_TIES] >> u32(j)) & 1u) == 1u) {
    return false; // a term >= 2^e, or a tie
  }
  let m = (bits & 0x7fffffu) | 0x800000u;
  let sum = m + (*tile)[at + RECORD_STEPS + u32(j)];
  if (sum >= 0x1000000u) {
    return false; // leaves the binade
  }
  *s = bitcast<f32>((field << 23u) | (sum & 0x7fffffu));
  return true;
}

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_index) li: u32) {
  let p = wg.z;
  let geometry = params.plane[p];
  let group_count = (geometry.blocks + GROUP_BLOCKS - 1u) / GROUP_BLOCKS;
  var s = 0.0; // invocation 0's
  var slow = 0u;
  var nan = 0u;
  for (var first_group = 0u; first_group < group_count; first_group += 64u) {
    let groups = min(64u, group_count - first_group);
    let group_from = (geometry.groups_at + first_group) * RECORD_WORDS;
    for (var w = li; w < groups * RECORD_WORDS; w += 64u) {
      group_tile[w] = records[group_from + w];
    }
    workgroupBarrier();
    for (var g = 0u; g < groups; g++) {
      if (li == 0u) {
        nan |= group_tile[g * RECORD_WORDS + RECORD_NAN];
        needs_blocks = select(1u, 0u, JUMP_GROUPS == 1u && jump(&s, &group_tile, g * RECORD_WORDS));
      }
      if (workgroupUniformLoad(&needs_blocks) == 1u) {
        let first_block = (first_group + g) * GROUP_BLOCKS;
        let blocks = min(GROUP_BLOCKS, geometry.blocks - first_block);
        let block_from = block_record(geometry, first_block);
        for (var w = li; w < blocks * RECORD_WORDS; w += 64u) {
          block_tile[w] = records[block_from + w];
        }
        workgroupBarrier();
        if (li == 0u) {
          for (var b = 0u; b < blocks; b++) {
            if (JUMP_GROUPS == 1u && jump(&s, &block_tile, b * RECORD_WORDS)) {
              continue;
            }
            s = sum_terms(s, geometry.terms_at + (first_block + b) * 64u, 64u);
            slow += 1u;
          }
        }
        workgroupBarrier();
      }
    }
    workgroupBarrier();
  }
  if (li == 0u) {
    results[p] = bitcast<u32>(s);
    results[3u + p] = slow;
    results[6u + p] = nan;
  }
}
