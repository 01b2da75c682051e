// est_params' steps 2-4 on the GPU, two workgroups per image: the covariance matrix, then
// side by side its eigenvalues (libvmaf's port of GSL: Householder tridiagonalisation,
// implicit QR steps) and the QR decomposition that solves K X = Y (libvmaf's Householder
// QR); speed/block-terms.wgsl does the rest per block. Float operations in libvmaf's order and
// rounding (exact-f32.wgsl); the QR steps run on thread 0, the rest spread over the group
// with as few barriers as the data flow allows (the fit's time is its longest chain).
// Needs speed/exact-f32.wgsl, speed/params.wgsl and the bindings of
// speed/detail.wgsl.

const WGM: u32 = 256u;
const N: u32 = 25u;
const NN: u32 = 625u;
const MAX_ITERATIONS: u32 = 500u;

var<workgroup> K: array<f32, NN>;  // the covariance matrix
var<workgroup> Z: array<f32, NN>;  // tridiagonalisation, then the QR decomposition's working matrix
var<workgroup> P: array<f32, NN>;  // the product of the reflections (libvmaf's Q, transposed twice)
var<workgroup> T: array<f32, NN>;  // matrix products; at the end R
var<workgroup> H: array<f32, NN>;  // a reflection I - 2 v v'
var<workgroup> v: array<f32, N>;
var<workgroup> xv: array<f32, N>;
var<workgroup> d: array<f32, N>;
var<workgroup> sd: array<f32, N>;
var<workgroup> eig: array<f32, N>;

// (hi + lo) / n rounded to float: libvmaf's double sum / n, stored as float.
fn covariance_value(hi: f32, lo: f32, n: f32) -> f32 {
  let q = div_rn(hi, n);
  if (q == 0.0) {
    return div_rn(hi + lo, n);
  }
  // residual (hi + lo) - q n in the direction of |q|, against half an ulp of q times n
  let p = two_prod(q, n);
  let sign = select(-1.0, 1.0, q > 0.0);
  let r = (((hi - p.x) - p.y) + lo) * sign;
  let a = abs(q);
  let up = bitcast<f32>(bitcast<u32>(a) + 1u);
  let down = bitcast<f32>(bitcast<u32>(a) - 1u);
  if (r > (up - a) * n * 0.5) {
    return up * sign;
  }
  if (-r > (a - down) * n * 0.5) {
    return down * sign;
  }
  return q;
}

fn hypot(a: f32, b: f32) -> f32 {
  return sqrt_rn(mul(a, a) + mul(b, b));
}

fn sign_of(a: f32) -> f32 {
  return select(-1.0, 1.0, a >= 0.0);
}

fn chop_small(at: u32, n: u32) {
  for (var i = at; i < at + n - 1u; i++) {
    if (below_eps_times(abs(sd[i]), abs(d[i]) + abs(d[i + 1u]))) {
      sd[i] = 0.0;
    }
  }
}

fn trailing_eigenvalue(at: u32, n: u32) -> f32 {
  let ta = d[at + n - 2u];
  let tb = d[at + n - 1u];
  let tab = sd[at + n - 2u];
  let dt = (ta - tb) * 0.5;
  if (dt > 0.0) {
    return tb - mul(tab, div_rn(tab, dt + hypot(dt, tab)));
  }
  if (dt == 0.0) {
    return tb - abs(tab);
  }
  return tb + mul(tab, div_rn(tab, -dt + hypot(dt, tab)));
}

// create_givens: (c, s)
fn givens(a: f32, b: f32) -> vec2f {
  if (b == 0.0) {
    return vec2f(1.0, 0.0);
  }
  if (abs(b) > abs(a)) {
    let t = div_rn(-a, b);
    let s1 = rsqrt_rn(1.0 + mul(t, t));
    return vec2f(mul(s1, t), s1);
  }
  let t = div_rn(-b, a);
  let c1 = rsqrt_rn(1.0 + mul(t, t));
  return vec2f(c1, mul(c1, t));
}

// c (c ap - s bp) + s (s aq - c bp), and its two companions
fn rot_a(c: f32, s: f32, ap: f32, bp: f32, aq: f32) -> f32 {
  return mul(c, mul(c, ap) - mul(s, bp)) + mul(s, mul(s, aq) - mul(c, bp));
}
fn rot_b(c: f32, s: f32, ap: f32, bp: f32, aq: f32) -> f32 {
  return mul(c, mul(s, ap) + mul(c, bp)) - mul(s, mul(s, bp) + mul(c, aq));
}
fn rot_q(c: f32, s: f32, ap: f32, bp: f32, aq: f32) -> f32 {
  return mul(s, mul(s, ap) + mul(c, bp)) + mul(c, mul(s, bp) + mul(c, aq));
}

// chop_small_elements' test for sd[i] = e between d[i] = p and d[i + 1] = q: whether it
// ends as zero (chopped, or zero already)
fn chopped(e: f32, p: f32, q: f32) -> bool {
  return e == 0.0 || below_eps_times(abs(e), abs(p) + abs(q));
}

// qr_step on the block of n starting at `at`, then chop_small_elements on it, folded into
// the step: each sd[i] is tested as soon as it and its two d are final (the test reads
// nothing the rest of the step writes). Returns the block's sd entries still non-zero, as
// bits at their indices.
fn qr_step(at: u32, n: u32) -> u32 {
  var mu = trailing_eigenvalue(at, n);
  if (below_eps_times(abs(d[at]) + abs(sd[at]), abs(mu))) {
    mu = 0.0;
  }
  var x = d[at] - mu;
  var z = sd[at];
  var bk = 0.0;
  var zk = 0.0;
  var ap = d[at];
  var bp = sd[at];
  var aq = d[at + 1u];
  if (n == 2u) {
    let g = givens(x, z);
    let ap1 = rot_a(g.x, g.y, ap, bp, aq);
    let bp1 = rot_b(g.x, g.y, ap, bp, aq);
    let aq1 = rot_q(g.x, g.y, ap, bp, aq);
    d[at] = ap1;
    d[at + 1u] = aq1;
    if (chopped(bp1, ap1, aq1)) {
      sd[at] = 0.0;
      return 0u;
    }
    sd[at] = bp1;
    return 1u << at;
  }
  var bq = sd[at + 1u];
  var live = 0u;
  var d_prev = 0.0;
  for (var k = 0u; k < n - 1u; k++) {
    let g = givens(x, z);
    let c = g.x;
    let s = g.y;
    let bk1 = mul(c, bk) - mul(s, zk);
    let ap1 = rot_a(c, s, ap, bp, aq);
    let bp1 = rot_b(c, s, ap, bp, aq);
    let zp1 = mul(-s, bq);
    let aq1 = rot_q(c, s, ap, bp, aq);
    let bq1 = mul(c, bq);
    bk = bp1;
    zk = zp1;
    ap = aq1;
    bp = bq1;
    if (k < n - 2u) {
      aq = d[at + k + 2u];
    }
    if (k + 3u < n) {
      bq = sd[at + k + 2u];
    }
    d[at + k] = ap1;
    if (k > 0u) {
      // sd[at + k - 1] is final, and so are its d
      let i = at + k - 1u;
      if (chopped(bk1, d_prev, ap1)) {
        sd[i] = 0.0;
      } else {
        sd[i] = bk1;
        live |= 1u << i;
      }
    }
    d_prev = ap1;
    x = bk;
    z = zk;
  }
  d[at + n - 1u] = ap;
  let i = at + n - 2u;
  if (chopped(bk, d_prev, ap)) {
    sd[i] = 0.0;
  } else {
    sd[i] = bk;
    live |= 1u << i;
  }
  return live;
}

// compute_eigenvalues_tridiagonal (thread 0), with the non-zero sd entries kept as bits,
// so that finding the next unreduced block scans no memory
fn diagonalise() {
  chop_small(0u, N);
  var live = 0u;
  for (var i = 0u; i + 1u < N; i++) {
    if (sd[i] != 0.0) {
      live |= 1u << i;
    }
  }
  var b = N - 1u;
  var iterations = 0u;
  while (iterations < MAX_ITERATIONS) {
    // b: one past the last non-zero sd at or below b - 1; a: one past the zero before it
    let below = live & ((1u << b) - 1u);
    if (below == 0u) {
      break;
    }
    b = firstLeadingBit(below) + 1u;
    let zeros = ~live & ((1u << (b - 1u)) - 1u);
    let a = select(0u, firstLeadingBit(zeros) + 1u, zeros != 0u);
    let block = ((1u << b) - 1u) & ~((1u << a) - 1u);
    live = (live & ~block) | qr_step(a, b - a + 1u);
    iterations++;
  }
  for (var i = 0u; i < N; i++) {
    eig[i] = d[i];
  }
}

// Matrices by number, for products (WGSL passes no workgroup pointers): 0 H, 1 Z, 2 P, 3 K
fn matrix_entry(m: u32, i: u32) -> f32 {
  switch m {
    case 0u: {
      return H[i];
    }
    case 1u: {
      return Z[i];
    }
    case 2u: {
      return P[i];
    }
    default: {
      return K[i];
    }
  }
}

// T = left right (matrix_mul: each entry summed over k in order)
fn product_into_t(li: u32, left: u32, right: u32) {
  for (var e = li; e < NN; e += WGM) {
    let r = e / N;
    let c = e % N;
    var acc = 0.0;
    for (var k = 0u; k < N; k++) {
      acc = acc + mul(matrix_entry(left, r * N + k), matrix_entry(right, k * N + c));
    }
    T[e] = acc;
  }
}

// compute_householder_transform of column `col` below row `start` of Z: (tau, the column's
// divisor or 0, beta). Every thread computes it alike, so none waits on thread 0.
fn householder(col: u32, start: u32) -> vec3f {
  var norm = 0.0;
  for (var r = start + 1u; r < N; r++) {
    norm = norm + mul(Z[r * N + col], Z[r * N + col]);
  }
  let xnorm = sqrt_rn(norm);
  if (xnorm == 0.0) {
    return vec3f(0.0);
  }
  let alpha = Z[start * N + col];
  let beta = -sign_of(alpha) * hypot(alpha, xnorm);
  return vec3f(div_rn(beta - alpha, beta), alpha - beta, beta);
}

// convert_to_tridiagonal, then compute_eigenvalues_tridiagonal on thread 0; K is in Z.
// Three barriers a reflection: every thread forms the reflection and the dot product
// itself, and the reflection's vector goes straight to v (of column i below the
// diagonal only the subdiagonal, beta, is read again, so only it is stored).
fn eigenvalues(li: u32, img: u32) {
  for (var i = 0u; i < N - 2u; i++) {
    let s = i + 1u;
    let hv = householder(i, s);
    let tau = hv.x;
    let divisor = hv.y;
    if (li >= s && li < N) {
      var value = Z[li * N + i];
      if (divisor != 0.0) {
        value = select(div_rn(value, divisor), hv.z, li == s);
      }
      v[li] = select(value, 1.0, tau != 0.0 && li == s);
    }
    workgroupBarrier();
    if (tau != 0.0) {
      if (li >= s && li < N) {
        var acc = 0.0;
        for (var c = s; c < N; c++) {
          acc = acc + mul(mul(tau, Z[li * N + c]), v[c]);
        }
        xv[li] = acc;
      }
    }
    if (li == 0u && divisor != 0.0) {
      Z[s * N + i] = hv.z;
    }
    workgroupBarrier();
    if (tau != 0.0) {
      var dot = 0.0;
      for (var r = s; r < N; r++) {
        dot = dot + mul(xv[r], v[r]);
      }
      let alpha = mul(-0.5 * tau, dot);
      for (var e = li; e < NN; e += WGM) {
        let r = e / N;
        let c = e % N;
        if (r >= s && c >= s) {
          let xr = xv[r] + mul(alpha, v[r]);
          let xc = xv[c] + mul(alpha, v[c]);
          Z[e] = Z[e] - (mul(xr, v[c]) + mul(v[r], xc));
        }
      }
    }
    workgroupBarrier();
  }
  if (li == 0u) {
    for (var i = 0u; i < N; i++) {
      d[i] = Z[i * N + i];
    }
    for (var i = 0u; i + 1u < N; i++) {
      sd[i] = Z[(i + 1u) * N + i];
    }
    diagonalise();
    var regular = 1.0;
    for (var i = 0u; i < N; i++) {
      work[work_eigenvalues(img) + i] = eig[i];
      if (below_eps(eig[i])) {
        regular = 0.0;
      }
    }
    work[work_flags(img)] = regular;
  }
}

// matrix_qr_decomposition of K (in Z): P = Q', T = R = Q' K; R's diagonal checked as
// solve_triangular_system does. Only the blocks that change are computed (as qr-solve.ts):
// at step k the reflection H = I - 2 v v' and the working matrix Z are the identity in their
// first k rows and columns, so libvmaf's full products only add exact zeros there. H is
// formed term by term inside the products, and the new Z and P go to T and H, then back.
fn decompose(li: u32, img: u32) {
  for (var e = li; e < NN; e += WGM) {
    P[e] = select(0.0, 1.0, e / N == e % N);
  }
  workgroupBarrier();
  for (var k = 0u; k < N - 1u; k++) {
    // column k of the minor (zero above row k)
    if (li < N) {
      v[li] = select(0.0, Z[li * N + k], li >= k);
    }
    workgroupBarrier();
    // each of the first N threads forms the reflection vector itself (no serial stage
    // behind a barrier): the sums in vector_norm's order, from row k (the rest add zeros)
    if (li < N) {
      var sum = 0.0;
      for (var i = k; i < N; i++) {
        sum = sum + mul(v[i], v[i]);
      }
      let vk = v[k] + sign_of(K[k * N + k]) * sqrt_rn(sum);
      var sum2 = mul(vk, vk);
      for (var i = k + 1u; i < N; i++) {
        sum2 = sum2 + mul(v[i], v[i]);
      }
      let length = sqrt_rn(sum2);
      xv[li] = div_rn(select(v[li], vk, li == k), length);
    }
    workgroupBarrier();
    // T = (H Z) on rows and columns from k + 1, H = (H P) on rows from k: sums from k on
    let zn = N - k - 1u;
    let zcount = zn * zn;
    let pcount = (N - k) * N;
    for (var e = li; e < zcount + pcount; e += WGM) {
      var r: u32;
      var c: u32;
      if (e < zcount) {
        r = k + 1u + e / zn;
        c = k + 1u + e % zn;
      } else {
        r = k + (e - zcount) / N;
        c = (e - zcount) % N;
      }
      let vr = -2.0 * xv[r];
      var acc = 0.0;
      if (e < zcount) {
        for (var j = k; j < N; j++) {
          let h = mul(vr, xv[j]);
          acc = acc + mul(select(h, h + 1.0, j == r), Z[j * N + c]);
        }
        T[r * N + c] = acc;
      } else {
        for (var j = k; j < N; j++) {
          let h = mul(vr, xv[j]);
          acc = acc + mul(select(h, h + 1.0, j == r), P[j * N + c]);
        }
        H[r * N + c] = acc;
      }
    }
    workgroupBarrier();
    for (var e = li; e < zcount + pcount; e += WGM) {
      if (e < zcount) {
        let at = (k + 1u + e / zn) * N + k + 1u + e % zn;
        Z[at] = T[at];
      } else {
        let at = (k + (e - zcount) / N) * N + (e - zcount) % N;
        P[at] = H[at];
      }
    }
    workgroupBarrier();
  }
  product_into_t(li, 2u, 3u);
  workgroupBarrier();
  for (var e = li; e < NN; e += WGM) {
    work[work_q(img) + e] = P[e];
    work[work_r(img) + e] = T[e];
  }
  if (li == 0u) {
    var regular = 1.0;
    for (var i = 0u; i < N; i++) {
      if (below_eps(abs(T[i * N + i]))) {
        regular = 0.0;
      }
    }
    work[work_flags(img) + 1u] = regular;
  }
}

// Steps 2-4 of est_params, two workgroups per image that run side by side: x = 0 the
// eigenvalues, x = 1 the QR decomposition that solves K X = Y (libvmaf skips the solve when
// an eigenvalue is below 1e-6; here both always run and the flags say which to use).
@compute @workgroup_size(WGM)
fn fit(@builtin(local_invocation_index) li: u32, @builtin(workgroup_id) wg: vec3u) {
  let img = wg.z;
  let n = f32(params.sub_w * params.sub_h);
  for (var e = li; e < PAIRS; e += WGM) {
    var a = 0u;
    while ((a + 1u) * (a + 2u) / 2u <= e) {
      a++;
    }
    let b = e - a * (a + 1u) / 2u;
    let value = covariance_value(work[work_pairs(img) + 2u * e], work[work_pairs(img) + 2u * e + 1u], n);
    K[a * N + b] = value;
    K[b * N + a] = value;
    Z[a * N + b] = value;
    Z[b * N + a] = value;
  }
  workgroupBarrier();
  if (wg.x == 0u) {
    eigenvalues(li, img);
  } else {
    decompose(li, img);
  }
}
