import { aliasOf, VqError, type ExtractorDefinition, type OptionValues, type PictureFormat } from "@vq/core";
import { ADM_DEBUG_FEATURES, ADM_FEATURES, admEntry, admOptions } from "./catalogue.ts";

export { ADM_DEBUG_FEATURES, ADM_FEATURES, admOptions } from "./catalogue.ts";

export type AdmOptions = OptionValues<typeof admOptions.defs>;

/** The key libvmaf writes for a provided feature: alias, then the non-default feature parameters. */
export function admFeatureName(feature: string, options: AdmOptions): string {
  return admOptions.featureName(aliasOf(admEntry, feature), options);
}

/** Smallest luma size whose coarsest DWT scale still has the 5 samples libvmaf's mirroring needs. */
export const ADM_MIN_SIZE = 33;

export const admDefinition: ExtractorDefinition<typeof admOptions.defs> = {
  name: admEntry.name,
  options: admOptions,
  temporal: admEntry.temporal,
  providedFeatures(options) {
    const names = options.debug ? [...ADM_FEATURES, ...ADM_DEBUG_FEATURES] : [...ADM_FEATURES];
    return names.map((n) => admFeatureName(n, options));
  },
  checkFormat(options, format: PictureFormat) {
    if (format.bitDepth !== 8 && format.bitDepth !== 10 && format.bitDepth !== 12 && format.bitDepth !== 16) {
      throw new VqError(`feature adm: ${format.bitDepth}-bit input is not supported (libvmaf's adm takes 8, 10, 12 or 16 bits)`);
    }
    if (format.width < ADM_MIN_SIZE || format.height < ADM_MIN_SIZE) {
      throw new VqError(`feature adm: ${format.width}x${format.height} is too small (at least ${ADM_MIN_SIZE}x${ADM_MIN_SIZE}: four DWT scales)`);
    }
    if (options.adm_norm_view_dist * options.adm_ref_display_height < 3.0 * 1080) {
      // libvmaf's extract() fails the same way: its 16-bit scale-0 pipeline needs at least 1080 lines at 3H
      throw new VqError(
        `feature adm: adm_norm_view_dist * adm_ref_display_height must be at least 3240 (1080 lines at 3H), got ${options.adm_norm_view_dist} * ${options.adm_ref_display_height}`,
      );
    }
  },
};
