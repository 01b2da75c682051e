import type { LoadedModel, VmafModel } from "./vmaf-model.ts";

/** One extractor run that a set of models needs. */
export interface RequiredExtractor {
  /** libvmaf's extractor name, e.g. `adm`. */
  readonly extractor: string;
  /** Options as libvmaf strings, ready for the extractor's OptionTable.parseStrings. */
  readonly options: Readonly<Record<string, string>>;
  /** libvmaf's instance name (extractor + feature-param suffixes): what makes two runs the same. */
  readonly instance: string;
  /** The collector keys the models read from this run, in first-use order. */
  readonly features: readonly string[];
}

function allModels(models: readonly LoadedModel[]): VmafModel[] {
  return models.flatMap((m) => [m.model, ...(m.bootstrap?.models ?? [])]);
}

/**
 * The extractor runs the models need, in the order libvmaf registers them (models in
 * order, features in feature_names order). Runs with the same instance name are one run,
 * as in libvmaf's feature_extractor_vector_append: the first one's options win.
 */
export function requiredExtractors(models: readonly LoadedModel[]): RequiredExtractor[] {
  const runs = new Map<string, { extractor: string; options: Readonly<Record<string, string>>; instance: string; features: string[] }>();
  for (const model of allModels(models)) {
    for (const f of model.features) {
      let run = runs.get(f.instance);
      if (!run) runs.set(f.instance, (run = { extractor: f.extractor, options: f.options, instance: f.instance, features: [] }));
      if (!run.features.includes(f.key)) run.features.push(f.key);
    }
  }
  return [...runs.values()];
}
