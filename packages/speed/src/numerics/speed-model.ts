/**
 * speed_extract_score for one pair of float pictures: prescale, anti-alias and decimate
 * by 16, remove the local mean, model each picture (est_params), then score the pair.
 */
import type { SpeedOptions } from "../definition.ts";
import { Decimator, LocalMeanRemover } from "./decimate.ts";
import { allocateImage, type FloatImage } from "./float-image.ts";
import { antialiasFilter, localMeanFilter } from "./gaussian-taps.ts";
import { allocateStatistics, ParameterEstimator, type BlockStatistics } from "./parameter-estimator.ts";
import { resample, resampling, type PrescaleMethod, type Resampling } from "./prescale.ts";
import { speedScore } from "./speed-score.ts";
import { SPEED_BLOCK_ELEMENTS, type SpeedGeometry } from "./speed-geometry.ts";
import { CovarianceEstimator } from "./covariance.ts";
import { QrSolver } from "./qr-solve.ts";

/**
 * SpeedModel's per-pixel passes and the pictures they work in: the reference's below, or
 * the WebAssembly kernels' (cpu/speed-wasm-passes.ts, ADR 0040), which give the same floats.
 */
export interface SpeedPasses {
  /** The prescaled picture, when the geometry resamples. */
  readonly scaled?: FloatImage;
  /** The decimated picture (the local mean is removed from it in place). */
  readonly decimated: FloatImage;
  /** Decimator.run: src is the original or the scaled picture. */
  decimate(src: FloatImage, out: FloatImage): void;
  /** LocalMeanRemover.run. */
  removeLocalMean(image: FloatImage): void;
  /** CovarianceEstimator.run. */
  covariance(data: Float32Array, cov: Float32Array): void;
  /** QrSolver.solve (K X = Y); false where K is singular. */
  solve(k: Float32Array, y: Float32Array, x: Float32Array): boolean;
}

/** The TypeScript reference's passes. */
export function referencePasses(geometry: SpeedGeometry, options: SpeedOptions): SpeedPasses {
  const decimator = new Decimator(geometry.scaled, geometry.decimated, antialiasFilter(options.speed_kernelscale));
  const localMean = new LocalMeanRemover(geometry.decimated, localMeanFilter(options.speed_kernelscale));
  const covariance = new CovarianceEstimator(geometry);
  const solver = new QrSolver(SPEED_BLOCK_ELEMENTS, geometry.blocks);
  return {
    scaled: geometry.resampled ? allocateImage(geometry.scaled) : undefined,
    decimated: allocateImage(geometry.decimated),
    decimate: (src, out) => decimator.run(src, out),
    removeLocalMean: (image) => localMean.run(image),
    covariance: (data, cov) => covariance.run(data, cov),
    solve: (k, y, x) => solver.solve(k, y, x),
  };
}

export interface PairScore {
  /** The SpEED score, a float. */
  readonly score: number;
  /** Either picture's covariance was singular (libvmaf's error return). */
  readonly singular: boolean;
}

export class SpeedModel {
  private readonly resampling?: Resampling;
  private readonly estimator: ParameterEstimator;
  readonly ref: BlockStatistics;
  readonly dis: BlockStatistics;

  constructor(
    readonly geometry: SpeedGeometry,
    readonly options: SpeedOptions,
    private readonly passes: SpeedPasses = referencePasses(geometry, options),
  ) {
    if (geometry.resampled) this.resampling = resampling(options.speed_prescale_method as PrescaleMethod, geometry.original, geometry.scaled);
    this.estimator = new ParameterEstimator(geometry, (data, cov) => passes.covariance(data, cov), (k, y, x) => passes.solve(k, y, x));
    this.ref = allocateStatistics(geometry.blocks);
    this.dis = allocateStatistics(geometry.blocks);
  }

  /** Scores a pair of pictures of the geometry's original size. */
  score(ref: FloatImage, dis: FloatImage): PairScore {
    this.model(ref, this.ref);
    this.model(dis, this.dis);
    return this.combine();
  }

  /**
   * Scores a pair whose decimated pictures `decimate` writes (0: the reference, 1: the
   * distorted), without full-size float pictures: the kernels' path when nothing is resampled.
   */
  scoreDecimated(decimate: (side: 0 | 1, out: FloatImage) => void): PairScore {
    this.modelDecimated(decimate, 0, this.ref);
    this.modelDecimated(decimate, 1, this.dis);
    return this.combine();
  }

  private modelDecimated(decimate: (side: 0 | 1, out: FloatImage) => void, side: 0 | 1, out: BlockStatistics): void {
    const { decimated } = this.passes;
    decimate(side, decimated);
    this.passes.removeLocalMean(decimated);
    this.estimator.run(decimated.data, this.options.speed_sigma_nn, out);
  }

  /** The decimated, local-mean-free picture (filter_and_downscale). */
  detail(image: FloatImage): FloatImage {
    const { scaled, decimated } = this.passes;
    let src = image;
    if (scaled && this.resampling) {
      resample(this.resampling, image, scaled);
      src = scaled;
    }
    this.passes.decimate(src, decimated);
    this.passes.removeLocalMean(decimated);
    return decimated;
  }

  private model(image: FloatImage, out: BlockStatistics): void {
    this.estimator.run(this.detail(image).data, this.options.speed_sigma_nn, out);
  }

  private combine(): PairScore {
    return { score: speedScore(this.ref, this.dis, this.options), singular: this.ref.singular || this.dis.singular };
  }
}
