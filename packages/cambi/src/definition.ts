import type { ExtractorDefinition, OptionValues, PictureFormat } from "@vq/core";
import { planCambi } from "./numerics/cambi-plan.ts";
import { cambiEntry, cambiOptions } from "./catalogue.ts";

export { cambiOptions, DEFAULT_EOTF, DEFAULT_TOPK, EOTFS } from "./catalogue.ts";

export type CambiOptions = OptionValues<typeof cambiOptions.defs>;

export const CAMBI_SOURCE = "cambi_source";
export const CAMBI_FULL_REFERENCE = "cambi_full_reference";

/** The score's key: `cambi`, suffixed by libvmaf's rule for non-default feature parameters. */
export function cambiScoreName(options: CambiOptions): string {
  return cambiOptions.featureName("cambi", options);
}

export const cambiDefinition: ExtractorDefinition<typeof cambiOptions.defs> = {
  name: cambiEntry.name,
  options: cambiOptions,
  temporal: cambiEntry.temporal,
  providedFeatures(options) {
    // libvmaf's name dictionary holds only the main score: the full-reference keys are never suffixed.
    return options.full_ref ? [cambiScoreName(options), CAMBI_SOURCE, CAMBI_FULL_REFERENCE] : [cambiScoreName(options)];
  },
  checkFormat(options, format: PictureFormat) {
    planCambi(options, format);
  },
};
