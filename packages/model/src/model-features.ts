import { aliasOf, formatG, VqError, type ModelExtractor } from "@vq/core";
import type { ModelFeature } from "./vmaf-model.ts";

export type RawOptionValue = number | boolean | string;

/**
 * A feature_opts_dicts value as libvmaf's dictionary stores it: numbers go through strtof
 * and "%g" (VMAF_DICT_NORMALIZE_NUMERICAL_VALUES), so 17.0 becomes "17" and an extractor
 * sees at most 6 significant digits; booleans become "true"/"false". (strtof rounds the
 * text once; rounding the parsed double to float can differ only for a decimal within half
 * a double ulp of a float rounding midpoint.)
 */
export function libvmafOptionString(value: RawOptionValue): string {
  if (typeof value === "number") return formatG(Math.fround(value));
  if (typeof value === "boolean") return value ? "true" : "false";
  return value;
}

/**
 * Resolves one model feature: the extractor that provides it, the model's options for it
 * (libvmaf ignores keys the extractor does not have), and the key it is stored under: the
 * alias, plus `_alias_value` for each non-default feature parameter in option-name order.
 */
export function resolveModelFeature(
  input: { name: string; options: Readonly<Record<string, RawOptionValue>>; slope: number; intercept: number },
  /** Where the name and the options are in the file, for messages. */
  where: { name: string; options: string },
  /** The extractors, in libvmaf's registration order: the first that provides the name is the one. */
  extractors: readonly ModelExtractor[],
  /** `--model ...:EXTRACTOR.opt=val`: options merged over the model's, per extractor name (vmaf_model_feature_overload). */
  overloads: Readonly<Record<string, Readonly<Record<string, string>>>> = {},
): ModelFeature {
  const { name, slope, intercept } = input;
  const extractor = extractors.find((e) => e.provides.includes(name));
  if (!extractor) throw new VqError(`${where.name}: no feature extractor provides "${name}"`);
  const options: Record<string, string> = {};
  for (const [key, value] of Object.entries(input.options)) {
    if (key in extractor.options.defs) options[key] = libvmafOptionString(value);
  }
  for (const [key, value] of Object.entries(overloads[extractor.name] ?? {})) {
    if (!(key in extractor.options.defs)) {
      throw new VqError(`model feature overload ${extractor.name}.${key}: ${extractor.name} has no option "${key}" (options: ${Object.keys(extractor.options.defs).join(", ")})`);
    }
    options[key] = value;
  }
  let values;
  try {
    values = extractor.options.parseStrings(options);
  } catch (e) {
    throw new VqError(`${where.options}: ${(e as Error).message}`, { cause: e });
  }
  return {
    name,
    slope,
    intercept,
    extractor: extractor.name,
    options,
    instance: extractor.options.featureName(extractor.name, values),
    key: extractor.options.featureName(aliasOf(extractor, name), values),
  };
}
