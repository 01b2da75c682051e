import { aliasOf, VqError, type CatalogueEntry, type ExtractorDefinition, type OptionValues, type PictureFormat } from "@vq/core";
import { VIF_FEATURES, vifEntry, vifOptions } from "./catalogue.ts";

export { DEFAULT_VIF_ENHN_GAIN_LIMIT, VIF_FEATURES, vifOptions } from "./catalogue.ts";

export type VifOptions = OptionValues<typeof vifOptions.defs>;

export interface VifFeatureNames {
  readonly scale: readonly string[];
  readonly vif: string;
  readonly num: string;
  readonly den: string;
  readonly numScale: readonly string[];
  readonly denScale: readonly string[];
}

/**
 * The keys libvmaf's output carries for either vif extractor: with default feature params
 * the writer aliases the plain name; otherwise the extractor already wrote `alias +
 * _suffixes`, which no alias matches.
 */
export function vifKeys(entry: CatalogueEntry, features: VifFeatureNames, options: OptionValues<any>): VifFeatureNames {
  const alias = (n: string) => aliasOf(entry, n);
  const name = (raw: string) => alias(entry.options.featureName(raw, options, alias));
  return {
    scale: features.scale.map(name),
    vif: name(features.vif),
    num: name(features.num),
    den: name(features.den),
    numScale: features.numScale.map(name),
    denScale: features.denScale.map(name),
  };
}

/** What either vif writes: the scale scores, and with debug the sums behind them. */
export function vifProvidedFeatures(n: VifFeatureNames, debug: boolean): string[] {
  if (!debug) return [...n.scale];
  const perScale = [0, 1, 2, 3].flatMap((s) => [n.numScale[s]!, n.denScale[s]!]);
  return [...n.scale, n.vif, n.num, n.den, ...perScale];
}

/** The keys integer vif writes under these options. */
export function vifFeatureNames(options: VifOptions): VifFeatureNames {
  return vifKeys(vifEntry, VIF_FEATURES, options);
}

/**
 * The smallest luma plane whose mirrored borders stay inside the picture at every scale:
 * scale 3 (1/8 size) must keep 2 rows and columns for its 3-tap filter.
 */
export const VIF_MIN_SIZE = 16;

export const vifDefinition: ExtractorDefinition<typeof vifOptions.defs> = {
  name: vifEntry.name,
  options: vifOptions,
  temporal: vifEntry.temporal,
  providedFeatures: (options) => vifProvidedFeatures(vifFeatureNames(options), options.debug),
  checkFormat(_options, format: PictureFormat) {
    if (format.bitDepth < 8 || format.bitDepth > 16) {
      throw new VqError(`feature vif: ${format.bitDepth}-bit input is not supported (8 to 16 bits)`);
    }
    // libvmaf reads outside the picture's mirrored borders below this size (stale buffer rows).
    if (format.width < VIF_MIN_SIZE || format.height < VIF_MIN_SIZE) {
      throw new VqError(`feature vif: a ${format.width}x${format.height} picture is too small (vif needs at least ${VIF_MIN_SIZE}x${VIF_MIN_SIZE} luma samples)`);
    }
  },
};
