import type { OptionDef, OptionTable } from "@vq/core";

/**
 * What the model stage needs to know about one of libvmaf's feature extractors: which
 * feature names a model may ask it for, and its options (to read a model's
 * `feature_opts_dicts` and to name the outputs after non-default feature parameters).
 */
export interface ModelExtractor {
  /** libvmaf's extractor name (`--feature NAME`). */
  readonly name: string;
  /** libvmaf's provided_features: the names a model's `feature_names` refer to. */
  readonly provides: readonly string[];
  readonly options: OptionTable<Record<string, OptionDef>>;
}
