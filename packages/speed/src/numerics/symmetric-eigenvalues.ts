/**
 * Step 2 of est_params: the eigenvalues of the covariance matrix, by libvmaf's float port
 * of GSL's symmetric eigensolver (Householder tridiagonalisation, then implicit QR steps
 * with Wilkinson shifts). Every step is a float operation in libvmaf's order (Math.fround
 * after each), so the eigenvalues are libvmaf's floats.
 */

const f32 = Math.fround;
const EPS = 1e-6;
const MAX_ITERATIONS = 500;

/** sqrt in double of a float sum of squares, stored as float. */
function hypot32(x: number, y: number): number {
  return f32(Math.sqrt(f32(f32(x * x) + f32(y * y))));
}

function sign(x: number): number {
  return x >= 0 ? 1 : -1;
}

export class SymmetricEigenvalues {
  private readonly a: Float32Array;
  private readonly d: Float32Array;
  private readonly sd: Float32Array;
  private readonly v: Float32Array;
  private readonly x: Float32Array;

  constructor(private readonly size: number) {
    this.a = new Float32Array(size * size);
    this.d = new Float32Array(size);
    this.sd = new Float32Array(size);
    this.v = new Float32Array(size);
    this.x = new Float32Array(size);
  }

  /** matrix: size x size, symmetric, row-major (left unchanged); out: the eigenvalues, unsorted. */
  run(matrix: Float32Array, out: Float32Array): void {
    this.a.set(matrix);
    if (this.size === 1) {
      out[0] = this.a[0]!;
      return;
    }
    this.tridiagonalise();
    this.diagonalise();
    out.set(this.d.subarray(0, this.size));
  }

  /** convert_to_tridiagonal (gsl_linalg_symmtd_decomp): N-2 Householder reflections. */
  private tridiagonalise(): void {
    const { a, v, x, size: n } = this;
    for (let i = 0; i < n - 2; i++) {
      const tau = this.householder(i, i + 1);
      for (let j = i + 1; j < n; j++) v[j] = a[j * n + i]!;
      if (tau !== 0) {
        a[(i + 1) * n + i] = v[i + 1]!;
        v[i + 1] = 1;
        const s = i + 1;
        // x = tau * A * v
        for (let r = s; r < n; r++) {
          let acc = 0;
          for (let c = s; c < n; c++) acc = f32(acc + f32(f32(tau * a[r * n + c]!) * v[c]!));
          x[r] = acc;
        }
        // x -= 0.5 * tau * dot(x, v) * v
        let xv = 0;
        for (let r = s; r < n; r++) xv = f32(xv + f32(x[r]! * v[r]!));
        const alpha = f32(-0.5 * tau * xv);
        for (let r = s; r < n; r++) x[r] = f32(x[r]! + f32(alpha * v[r]!));
        // A -= x v' + v x'
        for (let r = s; r < n; r++) {
          for (let c = s; c < n; c++) a[r * n + c] = f32(a[r * n + c]! - f32(f32(x[r]! * v[c]!) + f32(v[r]! * x[c]!)));
        }
      }
    }
    for (let i = 0; i < n; i++) this.d[i] = a[i * n + i]!;
    for (let i = 0; i < n - 1; i++) this.sd[i] = a[(i + 1) * n + i]!;
  }

  /** compute_householder_transform on column `col` from row `start` down; returns tau. */
  private householder(col: number, start: number): number {
    const { a, size: n } = this;
    if (n - start === 1) return 0;
    let norm = 0;
    for (let i = start + 1; i < n; i++) norm = f32(norm + f32(a[i * n + col]! * a[i * n + col]!));
    const xnorm = f32(Math.sqrt(norm));
    if (xnorm === 0) return 0;
    const alpha = a[start * n + col]!;
    const beta = f32(-sign(alpha) * hypot32(alpha, xnorm));
    const tau = f32(f32(beta - alpha) / beta);
    const s = f32(alpha - beta);
    if (s !== 0) {
      for (let i = start; i < n; i++) a[i * n + col] = f32(a[i * n + col]! / s);
      a[start * n + col] = beta;
    }
    return tau;
  }

  /**
   * compute_eigenvalues_tridiagonal (gsl_eigen_symm): QR steps on unreduced blocks, at
   * most 500 (libvmaf then warns and keeps what it has).
   */
  private diagonalise(): void {
    const { d, sd, size: n } = this;
    chopSmall(d, sd, 0, n);
    let b = n - 1;
    let iterations = 0;
    while (b > 0 && iterations < MAX_ITERATIONS) {
      if (sd[b - 1] === 0) {
        b--;
        continue;
      }
      let a = b - 1;
      while (a > 0) {
        if (sd[a - 1] === 0) break;
        a--;
      }
      const block = b - a + 1;
      qrStep(d, sd, a, block);
      chopSmall(d, sd, a, block);
      iterations++;
    }
  }
}

/** chop_small_elements on the block of n starting at `at`. */
function chopSmall(d: Float32Array, sd: Float32Array, at: number, n: number): void {
  for (let i = at; i < at + n - 1; i++) {
    if (Math.abs(sd[i]!) < EPS * f32(Math.abs(d[i]!) + Math.abs(d[i + 1]!))) sd[i] = 0;
  }
}

/** trailing_eigenvalue: the Wilkinson shift of the block's last 2x2. */
function trailingEigenvalue(d: Float32Array, sd: Float32Array, at: number, n: number): number {
  const ta = d[at + n - 2]!;
  const tb = d[at + n - 1]!;
  const tab = sd[at + n - 2]!;
  const dt = f32(f32(ta - tb) / 2);
  if (dt > 0) return f32(tb - f32(tab * f32(tab / f32(dt + hypot32(dt, tab)))));
  if (dt === 0) return f32(tb - Math.abs(tab));
  return f32(tb + f32(tab * f32(tab / f32(-dt + hypot32(dt, tab)))));
}

let givensC = 0;
let givensS = 0;

/** create_givens: the rotation (c, s) that zeroes b against a. */
function givens(a: number, b: number): void {
  if (b === 0) {
    givensC = 1;
    givensS = 0;
  } else if (Math.abs(b) > Math.abs(a)) {
    const t = f32(-a / b);
    const s1 = f32(1 / Math.sqrt(f32(1 + f32(t * t))));
    givensS = s1;
    givensC = f32(s1 * t);
  } else {
    const t = f32(-b / a);
    const c1 = f32(1 / Math.sqrt(f32(1 + f32(t * t))));
    givensC = c1;
    givensS = f32(c1 * t);
  }
}

/** qr_step: one implicit symmetric QR step on the block of n starting at `at`. */
function qrStep(d: Float32Array, sd: Float32Array, at: number, n: number): void {
  let mu = trailingEigenvalue(d, sd, at, n);
  if (EPS * Math.abs(mu) > f32(Math.abs(d[at]!) + Math.abs(sd[at]!))) mu = 0;
  let x = f32(d[at]! - mu);
  let z = sd[at]!;
  let ak = 0;
  let bk = 0;
  let zk = 0;
  let ap = d[at]!;
  let bp = sd[at]!;
  let aq = d[at + 1]!;
  if (n === 2) {
    givens(x, z);
    const c = givensC;
    const s = givensS;
    const ap1 = rotA(c, s, ap, bp, aq);
    const bp1 = rotB(c, s, ap, bp, aq);
    const aq1 = rotQ(c, s, ap, bp, aq);
    d[at] = ap1;
    sd[at] = bp1;
    d[at + 1] = aq1;
    return;
  }
  let bq = sd[at + 1]!;
  for (let k = 0; k < n - 1; k++) {
    givens(x, z);
    const c = givensC;
    const s = givensS;
    const bk1 = f32(f32(c * bk) - f32(s * zk));
    const ap1 = rotA(c, s, ap, bp, aq);
    const bp1 = rotB(c, s, ap, bp, aq);
    const zp1 = f32(f32(-s) * bq);
    const aq1 = rotQ(c, s, ap, bp, aq);
    const bq1 = f32(c * bq);
    ak = ap1;
    bk = bp1;
    zk = zp1;
    ap = aq1;
    bp = bq1;
    if (k < n - 2) aq = d[at + k + 2]!;
    if (k < n - 3) bq = sd[at + k + 2]!;
    d[at + k] = ak;
    if (k > 0) sd[at + k - 1] = bk1;
    if (k < n - 2) sd[at + k + 1] = bp;
    x = bk;
    z = zk;
  }
  d[at + n - 1] = ap;
  sd[at + n - 2] = bk;
}

/** c * (c * ap - s * bp) + s * (s * aq - c * bp) */
function rotA(c: number, s: number, ap: number, bp: number, aq: number): number {
  return f32(f32(c * f32(f32(c * ap) - f32(s * bp))) + f32(s * f32(f32(s * aq) - f32(c * bp))));
}

/** c * (s * ap + c * bp) - s * (s * bp + c * aq) */
function rotB(c: number, s: number, ap: number, bp: number, aq: number): number {
  return f32(f32(c * f32(f32(s * ap) + f32(c * bp))) - f32(s * f32(f32(s * bp) + f32(c * aq))));
}

/** s * (s * ap + c * bp) + c * (s * bp + c * aq) */
function rotQ(c: number, s: number, ap: number, bp: number, aq: number): number {
  return f32(f32(s * f32(f32(s * ap) + f32(c * bp))) + f32(c * f32(f32(s * bp) + f32(c * aq))));
}
