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
import type { SpeedGeometry } from "./speed-geometry.ts";

export interface PairScore {
  /** The SpEED score, a float. */
  readonly score: number;
  /** Either picture's covariance was singular (libvmaf's error return). */
  readonly singular: boolean;
}

export class SpeedModel {
  private readonly scaled?: FloatImage;
  private readonly resampling?: Resampling;
  private readonly decimator: Decimator;
  private readonly localMean: LocalMeanRemover;
  private readonly estimator: ParameterEstimator;
  private readonly decimated: FloatImage;
  readonly ref: BlockStatistics;
  readonly dis: BlockStatistics;

  constructor(readonly geometry: SpeedGeometry, readonly options: SpeedOptions) {
    if (geometry.resampled) {
      this.scaled = allocateImage(geometry.scaled);
      this.resampling = resampling(options.speed_prescale_method as PrescaleMethod, geometry.original, geometry.scaled);
    }
    this.decimator = new Decimator(geometry.scaled, geometry.decimated, antialiasFilter(options.speed_kernelscale));
    this.localMean = new LocalMeanRemover(geometry.decimated, localMeanFilter(options.speed_kernelscale));
    this.estimator = new ParameterEstimator(geometry);
    this.decimated = allocateImage(geometry.decimated);
    this.ref = allocateStatistics(geometry.blocks);
    this.dis = allocateStatistics(geometry.blocks);
  }

  /** Scores a pair of pictures of the geometry's original size. */
  score(ref: FloatImage, dis: FloatImage): PairScore {
    this.model(ref, this.ref);
    this.model(dis, this.dis);
    return this.combine();
  }

  /** The decimated, local-mean-free picture (filter_and_downscale). */
  detail(image: FloatImage): FloatImage {
    let src = image;
    if (this.scaled && this.resampling) {
      resample(this.resampling, image, this.scaled);
      src = this.scaled;
    }
    this.decimator.run(src, this.decimated);
    this.localMean.run(this.decimated);
    return this.decimated;
  }

  private model(image: FloatImage, out: BlockStatistics): void {
    this.estimator.run(this.detail(image).data, this.options.speed_sigma_nn, out);
  }

  private combine(): PairScore {
    return { score: speedScore(this.ref, this.dis, this.options), singular: this.ref.singular || this.dis.singular };
  }
}
