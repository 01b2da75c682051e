import type { FeatureEntry } from "./extraction/extractor.ts";
import type { OptionDef, OptionTable, OptionValues } from "./options/options.ts";

/**
 * What reading a VMAF model needs to know of one of libvmaf's feature extractors: which
 * feature names a model may ask it for, the short names libvmaf's writers print for them,
 * and its options (a model's `feature_opts_dicts`, and the key suffixes of non-default
 * feature parameters). @vq/model takes a list of these, so it depends on no metric package.
 */
export interface ModelExtractor {
  /** libvmaf's extractor name (`--feature NAME`). */
  readonly name: string;
  /** libvmaf's provided_features: the names a model's `feature_names` refer to. */
  readonly provides: readonly string[];
  /** libvmaf's alias table (feature/alias.c) for these names: provided name → printed name. */
  readonly aliases?: Readonly<Record<string, string>>;
  readonly options: OptionTable<Record<string, OptionDef>>;
}

/**
 * One extractor in vq's catalogue: the facts (name, options, provided names, aliases,
 * temporal) and where its code is, per backend. An entry holds no code that computes
 * anything, so listing every extractor loads no metric implementation
 * (adr/0022-extractor-catalogue.md).
 */
export interface CatalogueEntry<T extends Record<string, OptionDef> = any> extends ModelExtractor {
  readonly options: OptionTable<T>;
  /** Uses previous frames or accumulates over the run (libvmaf's VMAF_FEATURE_EXTRACTOR_TEMPORAL). */
  readonly temporal: boolean;
  /**
   * Whether, under these options, it reads nothing of the pictures but their luma planes
   * (absent: it reads every plane). When every extractor of a run does, ffmpeg is asked for
   * the luma plane alone (ADR 0043).
   */
  readonly lumaOnly?: (options: OptionValues<T>) => boolean;
  /** The modules with the extractor's code, loaded when a run uses it: the CPU one always, the GPU one for a GPU run. */
  readonly load: {
    readonly cpu: () => Promise<FeatureEntry<T, unknown>>;
    /** Absent: no GPU twin yet (a GPU run computes it on the CPU). */
    readonly gpu?: () => Promise<FeatureEntry<T, unknown>>;
  };
}

/** The name libvmaf's writers print for a provided feature name. */
export function aliasOf(extractor: Pick<ModelExtractor, "aliases">, name: string): string {
  return extractor.aliases?.[name] ?? name;
}
