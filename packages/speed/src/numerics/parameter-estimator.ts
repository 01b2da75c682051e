/**
 * est_params: SpEED's Gaussian scale mixture model of one decimated picture. From the
 * covariance K of its 5x5 neighbourhoods it derives, per 5x5 block, the variance field
 * S = y' K^-1 y / 25 and the entropy sum over K's eigenvalues L of log2(L S + sigma_nn)
 * + log2(2 pi e), in libvmaf's float steps.
 */
import { CovarianceEstimator } from "./covariance.ts";
import { QrSolver } from "./qr-solve.ts";
import { SPEED_BLOCK, SPEED_BLOCK_ELEMENTS, type SpeedGeometry } from "./speed-geometry.ts";
import { SymmetricEigenvalues } from "./symmetric-eigenvalues.ts";

const f32 = Math.fround;
const EIGENVALUE_EPS = 1e-6;
/** log2(2 pi e), libvmaf's constant term of a Gaussian's entropy. */
export const LOG2_2PIE = Math.log2(2 * Math.PI * Math.E);

/** What est_params returns for one picture. */
export interface BlockStatistics {
  readonly entropies: Float32Array;
  readonly variances: Float32Array;
  /** K could not be inverted (an eigenvalue or a pivot below 1e-6): S was taken as 0. */
  singular: boolean;
}

export function allocateStatistics(blocks: number): BlockStatistics {
  return { entropies: new Float32Array(blocks), variances: new Float32Array(blocks), singular: false };
}

export class ParameterEstimator {
  readonly covariance = new Float32Array(SPEED_BLOCK_ELEMENTS * SPEED_BLOCK_ELEMENTS);
  readonly eigenvalues = new Float32Array(SPEED_BLOCK_ELEMENTS);
  /** CovarianceEstimator.run, or the WebAssembly kernel's twin. */
  private readonly covarianceOf: (data: Float32Array, cov: Float32Array) => void;
  private readonly eigen = new SymmetricEigenvalues(SPEED_BLOCK_ELEMENTS);
  private readonly y: Float32Array;
  private readonly x: Float32Array;

  /** QrSolver.solve, or the WebAssembly kernel's twin. */
  private readonly solveWith: (k: Float32Array, y: Float32Array, x: Float32Array) => boolean;

  constructor(
    private readonly geometry: SpeedGeometry,
    covariance?: (data: Float32Array, cov: Float32Array) => void,
    solve?: (k: Float32Array, y: Float32Array, x: Float32Array) => boolean,
  ) {
    if (covariance) this.covarianceOf = covariance;
    else {
      const estimator = new CovarianceEstimator(geometry);
      this.covarianceOf = (data, cov) => estimator.run(data, cov);
    }
    if (solve) this.solveWith = solve;
    else {
      const solver = new QrSolver(SPEED_BLOCK_ELEMENTS, geometry.blocks);
      this.solveWith = (k, y, x) => solver.solve(k, y, x);
    }
    this.y = new Float32Array(SPEED_BLOCK_ELEMENTS * geometry.blocks);
    this.x = new Float32Array(SPEED_BLOCK_ELEMENTS * geometry.blocks);
  }

  /** data: the decimated picture after local-mean removal (row stride = decimated width). */
  run(data: Float32Array, sigmaNn: number, out: BlockStatistics): void {
    this.covarianceOf(data, this.covariance);
    this.eigen.run(this.covariance, this.eigenvalues);
    this.gatherBlocks(data);
    const regular = this.eigenvalues.every((l) => l >= EIGENVALUE_EPS);
    const solved = regular && this.solveWith(this.covariance, this.y, this.x);
    if (!solved) this.x.fill(0);
    out.singular = !solved;
    this.varianceField(out.variances);
    this.entropies(out.variances, f32(sigmaNn), out.entropies);
  }

  /** compute_independent_term: row k holds neighbourhood position k of every block. */
  private gatherBlocks(data: Float32Array): void {
    const { blocksX, blocksY, blocks, decimated } = this.geometry;
    for (let k = 0; k < SPEED_BLOCK_ELEMENTS; k++) {
      const r = Math.floor(k / SPEED_BLOCK);
      const c = k % SPEED_BLOCK;
      for (let by = 0; by < blocksY; by++) {
        for (let bx = 0; bx < blocksX; bx++) {
          this.y[k * blocks + by * blocksX + bx] = data[(by * SPEED_BLOCK + r) * decimated.width + bx * SPEED_BLOCK + c]!;
        }
      }
    }
  }

  /** Steps 5-6: S = column sums of (X .* Y) / 25. */
  private varianceField(s: Float32Array): void {
    const { blocks } = this.geometry;
    const { x, y } = this;
    for (let i = 0; i < SPEED_BLOCK_ELEMENTS * blocks; i++) x[i] = f32(f32(x[i]! * y[i]!) / SPEED_BLOCK_ELEMENTS);
    for (let k = 1; k < SPEED_BLOCK_ELEMENTS; k++) {
      for (let b = 0; b < blocks; b++) x[b] = f32(x[b]! + x[k * blocks + b]!);
    }
    s.set(x.subarray(0, blocks));
  }

  /** Steps 8-9: per block, the sum over eigenvalues of log2(L S + sigma_nn) + log2(2 pi e). */
  private entropies(s: Float32Array, sigmaNn: number, e: Float32Array): void {
    e.fill(0);
    for (let k = 0; k < SPEED_BLOCK_ELEMENTS; k++) {
      const l = Math.max(this.eigenvalues[k]!, 0);
      for (let b = 0; b < e.length; b++) e[b] = e[b]! + (Math.log2(f32(f32(l * s[b]!) + sigmaNn)) + LOG2_2PIE);
    }
  }
}
