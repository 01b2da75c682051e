// est_params' step 1 on the GPU: the means of the 25 shifted copies of each detail
// picture, then the 325 distinct covariance sums, accumulated as float pairs (about 48
// bits) so that rounding them to float agrees with libvmaf's double sums. The means are
// summed in a tree, not in libvmaf's float order: a mean m enters the centred sum only
// through n (mean - m_a)(mean - m_b), far below the sum's last bit. Needs
// speed/exact-f32.wgsl, speed/params.wgsl and the bindings of speed/detail.wgsl.

const WG: u32 = 64u;
var<workgroup> partial: array<vec2f, WG>;

// Thread li's samples of the shifted copy's region, li, li + WG, ...: the first one's
// (x, y), and the step, so that the loops need no division.
struct RegionWalk {
  x: u32,
  y: u32,
  dx: u32,
  dy: u32,
}

fn region_walk(li: u32) -> RegionWalk {
  let w = params.sub_w;
  var walk = RegionWalk(li, 0u, WG % w, WG / w);
  while (walk.x >= w) {
    walk.x -= w;
    walk.y++;
  }
  return walk;
}

fn walk_step(walk: ptr<function, RegionWalk>) {
  (*walk).x += (*walk).dx;
  (*walk).y += (*walk).dy;
  if ((*walk).x >= params.sub_w) {
    (*walk).x -= params.sub_w;
    (*walk).y++;
  }
}

// Workgroup k: copy k of image z, summed in a tree.
@compute @workgroup_size(WG)
fn means(@builtin(local_invocation_index) li: u32, @builtin(workgroup_id) wg: vec3u) {
  let k = wg.x;
  let img = wg.z;
  let at = work_detail(img) + (k / BLOCK) * params.dec_w + k % BLOCK;
  let n = params.sub_w * params.sub_h;
  var walk = region_walk(li);
  var sum = 0.0;
  var p = li;
  // four loads in flight before the four sums (in the same order): a workgroup per copy
  // leaves too few threads to hide the loads' latency otherwise
  for (; p + 3u * WG < n; p += 4u * WG) {
    var at4: array<u32, 4>;
    for (var j = 0u; j < 4u; j++) {
      at4[j] = at + walk.y * params.dec_w + walk.x;
      walk_step(&walk);
    }
    let x = vec4f(work[at4[0]], work[at4[1]], work[at4[2]], work[at4[3]]);
    sum += x[0];
    sum += x[1];
    sum += x[2];
    sum += x[3];
  }
  for (; p < n; p += WG) {
    sum += work[at + walk.y * params.dec_w + walk.x];
    walk_step(&walk);
  }
  partial[li] = vec2f(sum, 0.0);
  workgroupBarrier();
  for (var s = WG / 2u; s > 0u; s = s >> 1u) {
    if (li < s) {
      partial[li].x += partial[li + s].x;
    }
    workgroupBarrier();
  }
  if (li == 0u) {
    work[work_means(img) + k] = partial[0].x / f32(n);
  }
}

// Workgroup e: entry (a, b), b <= a, numbered row by row of the lower triangle.
@compute @workgroup_size(WG)
fn covariance(@builtin(local_invocation_index) li: u32, @builtin(workgroup_id) wg: vec3u) {
  let e = wg.x;
  var a = 0u;
  while ((a + 1u) * (a + 2u) / 2u <= e) {
    a++;
  }
  let b = e - a * (a + 1u) / 2u;
  let img = wg.z;
  let at_a = work_detail(img) + (a / BLOCK) * params.dec_w + a % BLOCK;
  let at_b = work_detail(img) + (b / BLOCK) * params.dec_w + b % BLOCK;
  let mean_a = work[work_means(img) + a];
  let mean_b = work[work_means(img) + b];
  let n = params.sub_w * params.sub_h;
  var walk = region_walk(li);
  var acc = vec2f(0.0, 0.0);
  var p = li;
  // loads four samples ahead, as in `means`; the sums keep their order
  for (; p + 3u * WG < n; p += 4u * WG) {
    var offset4: array<u32, 4>;
    for (var j = 0u; j < 4u; j++) {
      offset4[j] = walk.y * params.dec_w + walk.x;
      walk_step(&walk);
    }
    let xa = vec4f(work[at_a + offset4[0]], work[at_a + offset4[1]], work[at_a + offset4[2]], work[at_a + offset4[3]]);
    let xb = vec4f(work[at_b + offset4[0]], work[at_b + offset4[1]], work[at_b + offset4[2]], work[at_b + offset4[3]]);
    for (var j = 0u; j < 4u; j++) {
      acc = dd_add(acc, dd_mul(two_sum(xa[j], -mean_a), two_sum(xb[j], -mean_b)));
    }
  }
  for (; p < n; p += WG) {
    let offset = walk.y * params.dec_w + walk.x;
    walk_step(&walk);
    // x - mean, exact as a pair, like libvmaf's double subtraction
    let ca = two_sum(work[at_a + offset], -mean_a);
    let cb = two_sum(work[at_b + offset], -mean_b);
    acc = dd_add(acc, dd_mul(ca, cb));
  }
  partial[li] = acc;
  workgroupBarrier();
  for (var s = WG / 2u; s > 0u; s = s >> 1u) {
    if (li < s) {
      partial[li] = dd_add(partial[li], partial[li + s]);
    }
    workgroupBarrier();
  }
  if (li == 0u) {
    work[work_pairs(img) + 2u * e] = partial[0].x;
    work[work_pairs(img) + 2u * e + 1u] = partial[0].y;
  }
}
