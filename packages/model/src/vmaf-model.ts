import type { ModelExtractor } from "@vq/core";
import type { SvmModel } from "./libsvm-model.ts";

export type ModelType = "LIBSVMNUSVR" | "BOOTSTRAP_LIBSVMNUSVR" | "RESIDUEBOOTSTRAP_LIBSVMNUSVR";
export type NormalizationType = "none" | "linear_rescale";

/** One input of a model, resolved to the extractor run that computes it. */
export interface ModelFeature {
  /** As the model file names it, e.g. `VMAF_integer_feature_adm3_score`. */
  readonly name: string;
  readonly slope: number;
  readonly intercept: number;
  /** libvmaf's extractor name, e.g. `adm`. */
  readonly extractor: string;
  /** The model's options for that extractor, as libvmaf strings (numbers through strtof and %g), known options only. */
  readonly options: Readonly<Record<string, string>>;
  /** libvmaf's name of the extractor instance (name + feature-param suffixes): equal instances run once. */
  readonly instance: string;
  /** The key of the value in the collector and in libvmaf's output, e.g. `integer_adm3_csf_2_dlmw_0.7_egl_1_min_0.5_nw_0.02`. */
  readonly key: string;
}

/** libvmaf's score_transform: polynomial, then piecewise-linear knots, then rectification. */
export interface ScoreTransform {
  readonly p0?: number;
  readonly p1?: number;
  readonly p2?: number;
  /** Present when the file gives a knots list (possibly too short to apply). */
  readonly knots?: readonly (readonly [number, number])[];
  readonly outLteIn: boolean;
  readonly outGteIn: boolean;
}

export interface VmafModel {
  /** The score key it writes (`vmaf`, a `name=` given, or `vmaf_0001`… in a bootstrap collection). */
  readonly name: string;
  /** Where it was read from, for messages. */
  readonly source: string;
  readonly type: ModelType;
  readonly normalization: NormalizationType;
  /** De-normalisation of the SVM output. */
  readonly slope: number;
  readonly intercept: number;
  readonly features: readonly ModelFeature[];
  /** Absent when the file has no score_clip or disable_clip is set. */
  readonly clip?: { readonly min: number; readonly max: number };
  /** Absent unless enabled (by the file or enable_transform). */
  readonly transform?: ScoreTransform;
  /** v1 models: speed_chroma corrected from adm3 when it is 0. */
  readonly chromaCorrection?: number;
  readonly svm: SvmModel;
}

/** The bootstrap models of a BOOTSTRAP_LIBSVMNUSVR file (entries "1", "2", … of the file). */
export interface BootstrapCollection {
  /** Prefix of the keys `<name>_bagging`, `<name>_stddev`, `<name>_ci_p95_lo`, `<name>_ci_p95_hi`. */
  readonly name: string;
  readonly type: ModelType;
  readonly models: readonly VmafModel[];
}

/** What libvmaf's `--model` gives: a model, and for a bootstrap file also its collection. */
export interface LoadedModel {
  readonly model: VmafModel;
  readonly bootstrap?: BootstrapCollection;
}

/** libvmaf's VmafModelConfig: `--model ...:name=...:enable_transform=true:disable_clip=true`. */
export interface ModelConfig {
  /** Score key; libvmaf's default is `vmaf`. */
  readonly name?: string;
  readonly enableTransform?: boolean;
  readonly disableClip?: boolean;
  /** Per extractor name, options that override the model's (`--model ...:adm.adm_enhn_gain_limit=1`). */
  readonly overloads?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /**
   * The extractors a model's features are looked up in, in libvmaf's registration order
   * (@vq/score's EXTRACTORS): @vq/model knows no metric package itself.
   */
  readonly extractors: readonly ModelExtractor[];
}
