/**
 * Step 4 of est_params: solves K X = Y for the 25 x blocks matrix Y, by libvmaf's float
 * Householder QR (matrix_qr_decomposition, including its use of K's own diagonal for the
 * reflection signs) and back substitution. Float operations in libvmaf's order.
 */

const f32 = Math.fround;
const EPS = 1e-6;

export class QrSolver {
  private readonly q: Float32Array;
  private readonly r: Float32Array;
  private readonly h: Float32Array;
  private readonly z: Float32Array;
  private readonly v: Float32Array;
  private readonly qtb: Float32Array;

  /** n: the order of K; columns: the columns of Y. */
  constructor(private readonly n: number, private readonly columns: number) {
    const nn = n * n;
    this.q = new Float32Array(nn);
    this.r = new Float32Array(nn);
    this.h = new Float32Array(nn);
    this.z = new Float32Array(nn);
    this.v = new Float32Array(n);
    this.qtb = new Float32Array(n * columns);
  }

  /** Writes X into `x` (n x columns); false where R has a diagonal below 1e-6 (libvmaf's -EINVAL). */
  solve(k: Float32Array, y: Float32Array, x: Float32Array): boolean {
    this.decompose(k);
    // solve_linear_system transposes Q back, then forms Q B
    transpose(this.q, this.n);
    multiply(this.qtb, this.q, y, this.n, this.n, this.columns);
    return this.backSubstitute(x);
  }

  /**
   * matrix_qr_decomposition: Q (transposed at the end, as libvmaf leaves it) and R = Q A.
   * At step k the reflection H and the working matrix Z are the identity in their first k
   * rows and columns, so libvmaf's full products add exact zeros there: H Z is computed on
   * the lower-right block and H Q on rows k and below, the same sums in the same order.
   */
  private decompose(a: Float32Array): void {
    const { n, q, r, h, z, v } = this;
    z.set(a);
    q.fill(0);
    for (let i = 0; i < n; i++) q[i * n + i] = 1;
    for (let k = 0; k < n - 1; k++) {
      // matrix_minor: identity in the first k rows and columns
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < n; j++) if (i < k || j < k) z[i * n + j] = i === j ? 1 : 0;
      }
      for (let i = 0; i < n; i++) v[i] = z[i * n + k]!;
      const norm = vectorNorm(v, n);
      const sign = a[k * n + k]! >= 0 ? 1 : -1;
      v[k] = f32(v[k]! + f32(sign * norm));
      const length = vectorNorm(v, n);
      for (let i = 0; i < n; i++) v[i] = f32(v[i]! / length);
      // H = I - 2 v v' (v is zero above k)
      for (let i = k; i < n; i++) {
        for (let j = k; j < n; j++) h[i * n + j] = f32(f32(-2 * v[i]!) * v[j]!);
        h[i * n + i] = f32(h[i * n + i]! + 1);
      }
      multiplyBlock(r, h, z, n, k, k);
      for (let i = k; i < n; i++) for (let j = k; j < n; j++) z[i * n + j] = r[i * n + j]!;
      multiplyBlock(r, h, q, n, k, 0);
      for (let i = k; i < n; i++) for (let j = 0; j < n; j++) q[i * n + j] = r[i * n + j]!;
    }
    multiply(r, q, a, n, n, n);
    transpose(q, n);
  }

  /** solve_triangular_system: R X = Q'B from the last row up. */
  private backSubstitute(x: Float32Array): boolean {
    const { n, r, qtb, columns } = this;
    for (let i = n - 1; i >= 0; i--) {
      const den = r[i * n + i]!;
      if (Math.abs(den) < EPS) return false;
      for (let j = 0; j < columns; j++) {
        let t = qtb[i * columns + j]!;
        for (let k = i + 1; k < n; k++) t = f32(t - f32(x[k * columns + j]! * r[i * n + k]!));
        x[i * columns + j] = f32(t / den);
      }
    }
    return true;
  }
}

/** sqrt in double of the float sum of squares, as float. */
function vectorNorm(v: Float32Array, n: number): number {
  let sum = 0;
  for (let i = 0; i < n; i++) sum = f32(sum + f32(v[i]! * v[i]!));
  return f32(Math.sqrt(sum));
}

function transpose(m: Float32Array, n: number): void {
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < i; j++) {
      const t = m[i * n + j]!;
      m[i * n + j] = m[j * n + i]!;
      m[j * n + i] = t;
    }
  }
}

/** Rows and columns from `from` (and columns from `fromColumn`) of x y, summing k from `from` on. */
function multiplyBlock(dst: Float32Array, x: Float32Array, y: Float32Array, n: number, from: number, fromColumn: number): void {
  for (let i = from; i < n; i++) {
    const d = i * n;
    for (let j = fromColumn; j < n; j++) dst[d + j] = 0;
    for (let k = from; k < n; k++) {
      const xik = x[d + k]!;
      const yk = k * n;
      for (let j = fromColumn; j < n; j++) dst[d + j] = f32(dst[d + j]! + f32(xik * y[yk + j]!));
    }
  }
}

/** matrix_mul: dst (rows x cols) = x (rows x inner) y (inner x cols), accumulated in i-k-j order. */
function multiply(dst: Float32Array, x: Float32Array, y: Float32Array, rows: number, inner: number, cols: number): void {
  dst.fill(0, 0, rows * cols);
  for (let i = 0; i < rows; i++) {
    const d = i * cols;
    for (let k = 0; k < inner; k++) {
      const xik = x[i * inner + k]!;
      const yk = k * cols;
      for (let j = 0; j < cols; j++) dst[d + j] = f32(dst[d + j]! + f32(xik * y[yk + j]!));
    }
  }
}
