// libvmaf's top-k pooling replayed exactly on the GPU, for the pictures and scales whose
// top-k sum can round in double (see exact-pooling.ts): its quickselect (Hoare partition
// around arr[k], descending) on the c-values in place, then the double sum of arr[0..k)
// in that order.
//
// A partition round in parallel: with pivot p, the m-th "left stop" (ascending positions of
// [left, right] with arr <= p) swaps with the m-th "right stop" (descending positions with
// arr >= p) for every m with L_m <= R_m; the final i, j follow from the stop lists.
// The lists come from a compaction (right stops are stored in ascending order, R_m read
// from the end): a single-pass scan over blocks with decoupled look-back. Big intervals use
// two dispatches per round (split_stops, swap) over every job at once (workgroup y = job);
// the swap's boundary thread writes the next state into the other of two state slots
// (PARITY), so the round's readers never see it. `finish` then runs the remaining rounds
// in one workgroup per job.
//
// The double sum: non-zero c-values are multiples of 2^-24 (units) in [2^23, 2^38). While
// the running sum is below 2^53 units every addition is exact; in the binade [2^(52+L),
// 2^(53+L)) units (level L) the sum is t·2^L with t in [2^52, 2^53), and adding v gives
// t + round(v / 2^L), where only a tie depends on t's parity: each value's effect is a
// function of that bit, and such functions compose. `sum_blocks` composes them per block
// for each level the sum can reach and each start parity; `sum_walk` walks the blocks, and inside the block where
// the sum leaves its binade the chunks and then the values, handling that value exactly.
// Needs u64.wgsl.

struct ReplayJob {
  // first word of the job's c-values, and of its stop lists in lpos/rpos
  offset: u32,
  n: u32,
  k: u32,
  // the pooling words of this picture and scale (topk-pooling.wgsl)
  result_base: u32,
  // first word of the job's block scratch
  blocks: u32,
  // replay words: flag (1 replayed, 2 given up), sum low, sum high, rounds
  out: u32,
  // 1: replay whatever the sum (tests)
  force: u32,
  // first word of the job's tickets (one per slot) and block descriptors (per slot) in `sync`
  sync: u32,
}

override PARITY: u32 = 0u;
const BLOCK: u32 = 4096u;
const PER_THREAD: u32 = 16u;
// Level 0: below 2^53 units; levels 1-10: the binades up to 2^63 units that a sum of fewer
// than 2^25 values below 2^14 can reach.
const LEVELS: u32 = 11u;
const FN_WORDS: u32 = 44u; // per block: LEVELS x (increment from an even t, from an odd t) as u64
const MAX_K: u32 = 1u << 25u;
// State words per job: two slots (left, right, active, left stops, right stops, rounds),
// then the replay flag and the highest level the sum can reach.
const STATE_WORDS: u32 = 20u;
const SLOT_WORDS: u32 = 8u;
const REPLAY_WORD: u32 = 16u;
const LEVEL_WORD: u32 = 17u;
// A bound on the rounds of `finish` (each shrinks the interval by at least one value): past
// it the frame goes to the CPU rather than keep the GPU busy.
const MAX_FINISH_ROUNDS: u32 = 2048u;
const TOP_BIT: u32 = 1u << 21u; // 2^53 in the high word

@group(0) @binding(0) var<storage, read> jobs: array<ReplayJob>;
@group(0) @binding(1) var<storage, read_write> c_values: array<u32>;
@group(0) @binding(2) var<storage, read_write> results: array<u32>;
@group(0) @binding(3) var<storage, read_write> state: array<u32>;
@group(0) @binding(4) var<storage, read_write> lpos: array<u32>;
@group(0) @binding(5) var<storage, read_write> rpos: array<u32>;
@group(0) @binding(6) var<storage, read_write> blocks: array<u32>;
@group(0) @binding(7) var<storage, read_write> sync: array<atomic<u32>>;

var<workgroup> scan: array<vec2u, 256>;
var<workgroup> fns: array<vec4u, 256>;
var<workgroup> w_blocks: u32;
var<workgroup> w_active: u32;
var<workgroup> w_pos: u32;
var<workgroup> w_level: u32;
var<workgroup> w_cross: u32;
var<workgroup> w_t: vec2u;
var<workgroup> w_levels: u32;
var<workgroup> w_ticket: u32;
var<workgroup> w_prefix: vec2u;
// split_stops: a block's stop positions (block-relative, 16 bits), in order, so that they
// are written out in whole contiguous runs
var<workgroup> stage: array<atomic<u32>, 2048>;

// A non-zero c-value's float bits in units of 2^-24.
fn value_units(bits: u32) -> vec2u {
  return u64_shl(vec2u((bits & 0x7fffffu) | 0x800000u, 0u), ((bits >> 23u) & 0xffu) - 126u);
}

fn u64_shl(a: vec2u, s: u32) -> vec2u {
  if (s == 0u) {
    return a;
  }
  return vec2u(a.x << s, (a.y << s) | (a.x >> (32u - s)));
}

fn u64_shr(a: vec2u, s: u32) -> vec2u {
  if (s == 0u) {
    return a;
  }
  return vec2u((a.x >> s) | (a.y << (32u - s)), a.y >> s);
}

fn u64_less(a: vec2u, b: vec2u) -> bool {
  return a.y < b.y || (a.y == b.y && a.x < b.x);
}

// round(x / 2^s) to nearest, ties to even (0 < s < 32).
fn round_shift(x: vec2u, s: u32) -> vec2u {
  let q = u64_shr(x, s);
  let rem = x.x & ((1u << s) - 1u);
  let half = 1u << (s - 1u);
  let up = rem > half || (rem == half && (q.x & 1u) == 1u);
  return u64_add_u32(q, select(0u, 1u, up));
}

// What adding c-value `bits` does to t (the sum over 2^level) when t has parity `parity`.
fn step_inc(bits: u32, level: u32, parity: u32) -> vec2u {
  if (bits == 0u) {
    return vec2u(0u, 0u);
  }
  let m = (bits & 0x7fffffu) | 0x800000u;
  let sh = ((bits >> 23u) & 0xffu) - 126u;
  if (level <= sh) {
    return u64_shl(vec2u(m, 0u), sh - level);
  }
  let d = level - sh;
  let q = m >> d;
  let rem = m & ((1u << d) - 1u);
  let half = 1u << (d - 1u);
  let up = rem > half || (rem == half && ((parity + q) & 1u) == 1u);
  return vec2u(q + select(0u, 1u, up), 0u);
}

// The increments over values [first, to) at `level`: from an even t (xy) and an odd t (zw).
fn run_fn(o: u32, first: u32, to: u32, level: u32) -> vec4u {
  var even = vec2u(0u, 0u);
  var odd = vec2u(0u, 0u);
  for (var e = first; e < to; e++) {
    let bits = c_values[o + e];
    even = u64_add(even, step_inc(bits, level, even.x & 1u));
    odd = u64_add(odd, step_inc(bits, level, (1u + odd.x) & 1u));
  }
  return vec4u(even, odd);
}

// f then g.
fn compose(f: vec4u, g: vec4u) -> vec4u {
  let even = u64_add(f.xy, select(g.xy, g.zw, (f.x & 1u) == 1u));
  let odd = u64_add(f.zw, select(g.xy, g.zw, ((1u + f.z) & 1u) == 1u));
  return vec4u(even, odd);
}

fn apply(t: vec2u, f: vec4u) -> vec2u {
  return u64_add(t, select(f.xy, f.zw, (t.x & 1u) == 1u));
}

// Exclusive prefix of `v` over the workgroup; the total is left in scan[255].
fn scan_exclusive(li: u32, v: vec2u) -> vec2u {
  scan[li] = v;
  workgroupBarrier();
  for (var off = 1u; off < 256u; off <<= 1u) {
    var a = vec2u(0u, 0u);
    if (li >= off) {
      a = scan[li - off];
    }
    workgroupBarrier();
    scan[li] += a;
    workgroupBarrier();
  }
  return scan[li] - v;
}

fn slot(job: u32, parity: u32) -> u32 {
  return job * STATE_WORDS + parity * SLOT_WORDS;
}

// The m-th right stop (from the right), stored ascending.
fn right_stop(o: u32, cr: u32, m: u32) -> u32 {
  return rpos[o + cr - 1u - m];
}

// The m-th swap of a partition round (m < mm: the m-th left stop with the m-th right
// stop, when they have not crossed); true for the m where the swaps end, which then
// settles the round's i and j.
fn swap_stops(o: u32, cr: u32, m: u32, mm: u32) -> bool {
  var here = false;
  if (m < mm) {
    let a = lpos[o + m];
    let b = right_stop(o, cr, m);
    here = a <= b;
    if (here && a != b) {
      let va = c_values[o + a];
      c_values[o + a] = c_values[o + b];
      c_values[o + b] = va;
    }
  }
  let before = m == 0u || lpos[o + m - 1u] <= right_stop(o, cr, m - 1u);
  return before && !here;
}

// Given M swaps, the Hoare loop's final i and j, then the next interval (as libvmaf:
// `if (j < k) left = i; if (k < i) right = j;`). Writes left, right, active to `s`.
fn next_interval(o: u32, cl: u32, cr: u32, m: u32, k: u32, left: u32, right: u32, s: u32) {
  var i: i32;
  var j: i32;
  if (m >= 1u && lpos[o + m - 1u] == right_stop(o, cr, m - 1u)) {
    // the last swap was of the pivot's value with itself: both moved past it
    i = i32(lpos[o + m - 1u]) + 1;
    j = i32(lpos[o + m - 1u]) - 1;
  } else {
    i = 0x7fffffff;
    j = -1;
    if (m < cl) {
      i = i32(lpos[o + m]);
    }
    if (m >= 1u) {
      i = min(i, i32(right_stop(o, cr, m - 1u)));
      j = i32(lpos[o + m - 1u]);
    }
    if (m < cr) {
      j = max(j, i32(right_stop(o, cr, m)));
    }
  }
  var nl = i32(left);
  var nr = i32(right);
  if (j < i32(k)) {
    nl = i;
  }
  if (i32(k) < i) {
    nr = j;
  }
  state[s] = u32(nl);
  state[s + 1u] = u32(nr);
  state[s + 2u] = select(0u, 1u, nl < nr);
}

// Whether the pooled sum can round in double (exact-pooling.ts), and the first state;
// clears the tickets and block descriptors.
@compute @workgroup_size(256)
fn start(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let job = jobs[gid.y];
  let words = 2u + (job.n + BLOCK - 1u) / BLOCK * 4u;
  for (var w = gid.x; w < words; w += groups.x * 256u) {
    atomicStore(&sync[job.sync + w], 0u);
  }
  if (gid.x != 0u) {
    return;
  }
  let wg = gid;
  let r = job.result_base;
  var need = false;
  var total = vec2u(results[r + 1u], results[r + 2u]);
  if (results[r] <= job.k) {
    need = total.y >= TOP_BIT;
  } else {
    let above = results[r + 3u];
    let t = results[r + 6u];
    let sh = ((t >> 23u) & 0xffu) - 126u;
    let m = (t & 0x7fffffu) | 0x800000u;
    // every value summed is a multiple of t's last bit: count in those steps
    let steps = u64_add(u64_shr(vec2u(results[r + 4u], results[r + 5u]), sh), u64_mul_u32(job.k - above, m));
    need = steps.y >= TOP_BIT;
    total = u64_shl(steps, sh);
  }
  // The running double sum strays from the exact one by under 2^-27 of it (k < 2^25
  // roundings of at most 2^-53 each): the binades it can reach.
  let bound = u64_add_u32(u64_add(total, u64_shr(total, 27u)), 1u);
  state[wg.y * STATE_WORDS + LEVEL_WORD] = select(0u, firstLeadingBit(bound.y) - 20u, bound.y >= TOP_BIT);
  need = need || job.force == 1u;
  let s = slot(wg.y, 0u);
  state[s] = 0u;
  state[s + 1u] = job.n - 1u;
  state[s + 2u] = select(0u, 1u, need && job.n != job.k && job.k < MAX_K);
  state[s + 5u] = 0u;
  // (past MAX_K values the sum could leave the levels: the CPU pools it)
  state[wg.y * STATE_WORDS + REPLAY_WORD] = select(0u, select(1u, 2u, job.k >= MAX_K), need);
}

// Which of a thread's values [first, to) are left stops (bits 0-15) and right stops (bits 16-31).
fn stop_bits(o: u32, first: u32, to: u32, p: u32) -> u32 {
  var bits = 0u;
  for (var e = first; e < to; e++) {
    let v = c_values[o + e];
    bits |= select(0u, 1u, v <= p) << (e - first);
    bits |= select(0u, 0x10000u, v >= p) << (e - first);
  }
  return bits;
}

// Writes one stop list of a block starting at `block_start`: each thread's stops (`bits`,
// from block-relative position `base`) at their ranks `rank` in the stage, then the block's
// `count` positions out from word `at` of the list, contiguous.
fn write_stops(li: u32, bits: u32, block_start: u32, base: u32, rank: u32, count: u32, at: u32, right: bool) {
  for (var w = li; w < 2048u; w += 256u) {
    atomicStore(&stage[w], 0u);
  }
  workgroupBarrier();
  var b = bits;
  var r = rank;
  loop {
    if (b == 0u) {
      break;
    }
    let e = base + firstTrailingBit(b);
    b &= b - 1u;
    atomicOr(&stage[r >> 1u], e << ((r & 1u) * 16u));
    r += 1u;
  }
  workgroupBarrier();
  for (var i = li; i < count; i += 256u) {
    let e = block_start + ((atomicLoad(&stage[i >> 1u]) >> ((i & 1u) * 16u)) & 0xffffu);
    if (right) {
      rpos[at + i] = e;
    } else {
      lpos[at + i] = e;
    }
  }
  workgroupBarrier();
}

// The stops a thread's values [first, to) hold.
fn stops_in(o: u32, first: u32, to: u32, p: u32) -> vec2u {
  var c = vec2u(0u, 0u);
  for (var e = first; e < to; e++) {
    let v = c_values[o + e];
    c += vec2u(select(0u, 1u, v <= p), select(0u, 1u, v >= p));
  }
  return c;
}

// Blocks of the job's interval (0 when it is done), uniform across the workgroup.
fn interval_blocks(li: u32, s: u32) -> u32 {
  if (li == 0u) {
    w_blocks = select(0u, (state[s + 1u] - state[s]) / BLOCK + 1u, state[s + 2u] == 1u);
  }
  return workgroupUniformLoad(&w_blocks);
}

// A block descriptor word: its stop count, and whether that is the block's own (AGGREGATE)
// or through it from the interval's start (INCLUSIVE); 0 while unpublished.
const AGGREGATE: u32 = 1u << 30u;
const INCLUSIVE: u32 = 2u << 30u;
const COUNT_MASK: u32 = AGGREGATE - 1u;

fn descriptor(d: u32) -> u32 {
  loop {
    let v = atomicLoad(&sync[d]);
    if (v != 0u) {
      return v;
    }
  }
}

// Round, step 1: the stop lists (positions in order). Blocks are taken in ticket order, so
// a block only waits (looking back at the descriptors of the blocks before it) on blocks
// that workgroups already hold: every workgroup that waits has its predecessors running.
@compute @workgroup_size(256)
fn split_stops(@builtin(local_invocation_index) li: u32, @builtin(workgroup_id) wg: vec3u) {
  let job = jobs[wg.y];
  let s = slot(wg.y, PARITY);
  let nblocks = interval_blocks(li, s);
  let left = state[s];
  let right = state[s + 1u];
  let o = job.offset;
  let p = c_values[o + job.k];
  let half = (job.n + BLOCK - 1u) / BLOCK * 2u;
  let now = job.sync + 2u + PARITY * half;
  let next = job.sync + 2u + (1u - PARITY) * half;
  if (wg.x == 0u && li == 0u) {
    atomicStore(&sync[job.sync + 1u - PARITY], 0u); // the next round's tickets
  }
  loop {
    if (li == 0u) {
      w_ticket = atomicAdd(&sync[job.sync + PARITY], 1u);
    }
    let bx = workgroupUniformLoad(&w_ticket);
    if (bx >= nblocks) {
      break;
    }
    let block_start = left + bx * BLOCK;
    let first = block_start + li * PER_THREAD;
    let to = min(first + PER_THREAD, right + 1u);
    let bits = stop_bits(o, first, to, p);
    let ex = scan_exclusive(li, vec2u(countOneBits(bits & 0xffffu), countOneBits(bits >> 16u)));
    if (li == 0u) {
      let own = scan[255];
      var before = vec2u(0u, 0u);
      if (bx == 0u) {
        atomicStore(&sync[now], INCLUSIVE | own.x);
        atomicStore(&sync[now + 1u], INCLUSIVE | own.y);
      } else {
        atomicStore(&sync[now + 2u * bx], AGGREGATE | own.x);
        atomicStore(&sync[now + 2u * bx + 1u], AGGREGATE | own.y);
        var b = bx;
        var done_l = false;
        var done_r = false;
        loop {
          b -= 1u;
          if (!done_l) {
            let d = descriptor(now + 2u * b);
            before.x += d & COUNT_MASK;
            done_l = d >= INCLUSIVE;
          }
          if (!done_r) {
            let d = descriptor(now + 2u * b + 1u);
            before.y += d & COUNT_MASK;
            done_r = d >= INCLUSIVE;
          }
          if (done_l && done_r) {
            break;
          }
        }
        atomicStore(&sync[now + 2u * bx], INCLUSIVE | (before.x + own.x));
        atomicStore(&sync[now + 2u * bx + 1u], INCLUSIVE | (before.y + own.y));
      }
      if (bx == nblocks - 1u) {
        state[s + 3u] = before.x + own.x;
        state[s + 4u] = before.y + own.y;
      }
      w_prefix = before;
    } else if (li == 1u) {
      // the next round's blocks are among this round's: clear them for it
      atomicStore(&sync[next + 2u * bx], 0u);
      atomicStore(&sync[next + 2u * bx + 1u], 0u);
    }
    workgroupBarrier();
    let own = scan[255];
    let prefix = w_prefix;
    // positions relative to the block's start: below 4096, 16 bits
    write_stops(li, bits & 0xffffu, block_start, li * PER_THREAD, ex.x, own.x, o + prefix.x, false);
    write_stops(li, bits >> 16u, block_start, li * PER_THREAD, ex.y, own.y, o + prefix.y, true);
  }
}

// Round, step 2: the swaps L_m <-> R_m while L_m <= R_m; the thread at the first m without
// one writes the next interval into the other slot.
@compute @workgroup_size(256)
fn swap(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let y = gid.y;
  let job = jobs[y];
  let s = slot(y, PARITY);
  let next = slot(y, 1u - PARITY);
  let is_active = state[s + 2u] == 1u;
  if (!is_active) {
    if (gid.x == 0u) {
      for (var w = 0u; w < SLOT_WORDS; w++) {
        state[next + w] = state[s + w];
      }
    }
    return;
  }
  let o = job.offset;
  let cl = state[s + 3u];
  let cr = state[s + 4u];
  let mm = min(cl, cr);
  for (var m = gid.x; m <= mm; m += groups.x * 256u) {
    if (swap_stops(o, cr, m, mm)) {
      next_interval(o, cl, cr, m, job.k, state[s], state[s + 1u], next);
      state[next + 5u] = state[s + 5u] + 1u;
    }
  }
}

// The remaining rounds, one workgroup per job (any interval size; the round dispatches
// only make the big ones parallel).
@compute @workgroup_size(256)
fn finish(@builtin(local_invocation_index) li: u32, @builtin(workgroup_id) wg: vec3u) {
  let job = jobs[wg.y];
  let o = job.offset;
  let s = slot(wg.y, PARITY);
  if (li == 0u) {
    w_active = state[s + 2u];
    w_blocks = (state[s + 1u] - state[s]) / BLOCK + 1u;
  }
  var rounds = 0u;
  loop {
    if (workgroupUniformLoad(&w_active) != 1u) {
      break;
    }
    if (rounds == MAX_FINISH_ROUNDS) {
      if (li == 0u) {
        state[wg.y * STATE_WORDS + REPLAY_WORD] = 2u;
      }
      break;
    }
    rounds += 1u;
    let nblocks = workgroupUniformLoad(&w_blocks);
    let left = state[s];
    let right = state[s + 1u];
    let p = c_values[o + job.k];
    var offsets = vec2u(0u, 0u);
    for (var b = 0u; b < nblocks; b++) {
      let first = left + b * BLOCK + li * PER_THREAD;
      let to = min(first + PER_THREAD, right + 1u);
      var rank = offsets + scan_exclusive(li, stops_in(o, first, to, p));
      for (var e = first; e < to; e++) {
        let v = c_values[o + e];
        if (v <= p) {
          lpos[o + rank.x] = e;
          rank.x += 1u;
        }
        if (v >= p) {
          rpos[o + rank.y] = e;
          rank.y += 1u;
        }
      }
      offsets += scan[255];
      workgroupBarrier();
    }
    storageBarrier();
    workgroupBarrier();
    let cl = offsets.x;
    let cr = offsets.y;
    let mm = min(cl, cr);
    for (var m = li; m <= mm; m += 256u) {
      if (swap_stops(o, cr, m, mm)) {
        next_interval(o, cl, cr, m, job.k, left, right, s);
      }
    }
    storageBarrier();
    workgroupBarrier();
    if (li == 0u) {
      w_active = state[s + 2u];
      w_blocks = (state[s + 1u] - state[s]) / BLOCK + 1u;
    }
  }
  if (li == 0u) {
    state[s + 5u] += rounds;
  }
}

// The sum, step 1: per block of arr[0..k) and level, the increments of t from an even and
// from an odd start.
@compute @workgroup_size(256)
fn sum_blocks(@builtin(local_invocation_index) li: u32, @builtin(workgroup_id) wg: vec3u) {
  let job = jobs[wg.y];
  let on = state[wg.y * STATE_WORDS + REPLAY_WORD] == 1u && wg.x * BLOCK < job.k;
  let first = min(wg.x * BLOCK + li * PER_THREAD, job.k);
  let to = min(first + PER_THREAD, job.k);
  if (li == 0u) {
    w_levels = select(0u, min(LEVELS, state[wg.y * STATE_WORDS + LEVEL_WORD] + 1u), on);
  }
  let levels = workgroupUniformLoad(&w_levels);
  for (var level = 0u; level < levels; level++) {
    var f = vec4u(0u, 0u, 0u, 0u);
    if (on) {
      f = run_fn(job.offset, first, to, level);
    }
    fns[li] = f;
    workgroupBarrier();
    for (var h = 1u; h < 256u; h <<= 1u) {
      if ((li & (2u * h - 1u)) == 0u) {
        fns[li] = compose(fns[li], fns[li + h]);
      }
      workgroupBarrier();
    }
    if (on && li == 0u) {
      let at = job.blocks + wg.x * FN_WORDS + level * 4u;
      let g = fns[0];
      blocks[at] = g.x;
      blocks[at + 1u] = g.y;
      blocks[at + 2u] = g.z;
      blocks[at + 3u] = g.w;
    }
    workgroupBarrier();
  }
}

// The sum crosses into the next binade at value `bits`: t at `level` plus the value,
// rounded exactly, as t at the next level.
fn cross(t: vec2u, level: u32, bits: u32) -> vec2u {
  let exact = u64_add(u64_shl(t, level), value_units(bits));
  if (exact.y < (TOP_BIT << level)) {
    // still inside this binade: rounds up to its top, 2^53 steps
    return u64_shr(round_shift(exact, level), 1u);
  }
  return round_shift(exact, level + 1u);
}

// The sum, step 2 (one workgroup per job): whole blocks while the sum stays in its binade,
// else the block's chunks, else the chunk's values one by one.
@compute @workgroup_size(256)
fn sum_walk(@builtin(local_invocation_index) li: u32, @builtin(workgroup_id) wg: vec3u) {
  let job = jobs[wg.y];
  let o = job.offset;
  let k = job.k;
  let nblocks = (k + BLOCK - 1u) / BLOCK;
  if (li == 0u) {
    w_pos = select(k, 0u, state[wg.y * STATE_WORDS + REPLAY_WORD] == 1u);
    w_level = 0u;
    w_t = vec2u(0u, 0u);
    w_cross = 0u;
  }
  loop {
    let pos = workgroupUniformLoad(&w_pos);
    if (pos >= k) {
      break;
    }
    let level = w_level;
    let crossing = workgroupUniformLoad(&w_cross);
    if (pos % BLOCK == 0u && crossing == 0u) {
      let b0 = pos / BLOCK;
      if (b0 + li < nblocks) {
        let at = job.blocks + (b0 + li) * FN_WORDS + level * 4u;
        fns[li] = vec4u(blocks[at], blocks[at + 1u], blocks[at + 2u], blocks[at + 3u]);
      }
      workgroupBarrier();
      if (li == 0u) {
        var t = w_t;
        var p = pos;
        for (var j = 0u; j < 256u && b0 + j < nblocks; j++) {
          let t2 = apply(t, fns[j]);
          if (t2.y >= TOP_BIT) {
            w_cross = 1u;
            break;
          }
          t = t2;
          p = min(k, p + BLOCK);
        }
        w_t = t;
        w_pos = p;
      }
      workgroupBarrier();
      continue;
    }
    // inside block b from pos: chunk functions at this level
    let b = pos / BLOCK;
    let chunk0 = b * BLOCK;
    let first = min(max(chunk0 + li * PER_THREAD, pos), k);
    let to = min(chunk0 + li * PER_THREAD + PER_THREAD, k);
    fns[li] = run_fn(o, first, max(first, to), level);
    workgroupBarrier();
    if (li == 0u) {
      var t = w_t;
      var p = pos;
      var lv = level;
      let end = min(k, chunk0 + BLOCK);
      for (var c = (pos - chunk0) / PER_THREAD; c < 256u && p < end; c++) {
        let chunk_end = min(chunk0 + c * PER_THREAD + PER_THREAD, k);
        let t2 = apply(t, fns[c]);
        if (t2.y < TOP_BIT) {
          t = t2;
          p = chunk_end;
          continue;
        }
        for (var e = p; e < chunk_end; e++) {
          let bits = c_values[o + e];
          let t3 = u64_add(t, step_inc(bits, lv, t.x & 1u));
          p = e + 1u;
          if (t3.y < TOP_BIT) {
            t = t3;
          } else {
            t = cross(t, lv, bits);
            lv += 1u;
            if (lv > min(LEVELS - 1u, state[wg.y * STATE_WORDS + LEVEL_WORD])) {
              // past the levels sum_blocks made (cannot happen): leave it to the CPU
              state[wg.y * STATE_WORDS + REPLAY_WORD] = 2u;
              p = k;
            }
            break;
          }
        }
        break;
      }
      w_t = t;
      w_pos = p;
      w_level = lv;
      w_cross = 0u;
    }
    workgroupBarrier();
  }
  if (li == 0u) {
    let flag = state[wg.y * STATE_WORDS + REPLAY_WORD];
    let sum = u64_shl(w_t, w_level);
    results[job.out] = flag;
    results[job.out + 1u] = sum.x;
    results[job.out + 2u] = sum.y;
    results[job.out + 3u] = state[slot(wg.y, PARITY) + 5u];
  }
}
