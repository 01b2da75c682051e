import { aliasOf, VqError, type ExtractorDefinition, type OptionValues, type PictureFormat } from "@vq/core";
import { FLOAT_ADM_DEBUG_FEATURES, FLOAT_ADM_FEATURES, floatAdmEntry, floatAdmOptions } from "./catalogue.ts";
import { ADM_MIN_SIZE } from "./definition.ts";

export { FLOAT_ADM_DEBUG_FEATURES, FLOAT_ADM_FEATURES, floatAdmOptions } from "./catalogue.ts";

export type FloatAdmOptions = OptionValues<typeof floatAdmOptions.defs>;

export function floatAdmFeatureName(feature: string, options: FloatAdmOptions): string {
  return floatAdmOptions.featureName(aliasOf(floatAdmEntry, feature), options);
}

export const floatAdmDefinition: ExtractorDefinition<typeof floatAdmOptions.defs> = {
  name: floatAdmEntry.name,
  options: floatAdmOptions,
  temporal: floatAdmEntry.temporal,
  providedFeatures(options) {
    const names = options.debug ? [...FLOAT_ADM_FEATURES, ...FLOAT_ADM_DEBUG_FEATURES] : [...FLOAT_ADM_FEATURES];
    return names.map((n) => floatAdmFeatureName(n, options));
  },
  checkFormat(_options, format: PictureFormat) {
    if (format.bitDepth !== 8 && format.bitDepth !== 10 && format.bitDepth !== 12 && format.bitDepth !== 16) {
      throw new VqError(`feature float_adm: ${format.bitDepth}-bit input is not supported (8, 10, 12 or 16 bits)`);
    }
    if (format.width < ADM_MIN_SIZE || format.height < ADM_MIN_SIZE) {
      throw new VqError(`feature float_adm: ${format.width}x${format.height} is too small (at least ${ADM_MIN_SIZE}x${ADM_MIN_SIZE}: four DWT scales)`);
    }
  },
};
