import { isValidKernelScale, vifFilterSize, VqError, type ExtractorDefinition, type OptionValues, type PictureFormat } from "@vq/core";
import { FLOAT_VIF_FEATURES, floatVifEntry, floatVifOptions } from "./catalogue.ts";
import { vifKeys, vifProvidedFeatures, type VifFeatureNames } from "./definition.ts";
import { prescaledSize, BILINEAR_MAX_WIDTH } from "./numerics/float-vif-prescale.ts";

export { FLOAT_VIF_FEATURES, floatVifOptions } from "./catalogue.ts";

export type FloatVifOptions = OptionValues<typeof floatVifOptions.defs>;
export type FloatVifFeatureNames = VifFeatureNames;

/** The keys float_vif writes under these options (see vifKeys: alias, then option suffixes). */
export function floatVifFeatureNames(options: FloatVifOptions): FloatVifFeatureNames {
  return vifKeys(floatVifEntry, FLOAT_VIF_FEATURES, options);
}

/**
 * The smallest size each scale's picture may have: its mirrored border (the filter
 * radius) must stay inside it, both for the statistic and for the blur that decimates
 * the scale before it. libvmaf reads outside its buffers below this.
 */
export function floatVifMinimumFits(width: number, height: number, kernelScale: number): boolean {
  let w = width;
  let h = height;
  for (let scale = 0; scale < 4; scale++) {
    const radius = vifFilterSize(scale, kernelScale) >> 1;
    if (scale > 0) {
      // the blur before decimation reads the previous scale with this scale's filter
      if (w <= radius || h <= radius) return false;
      w >>= 1;
      h >>= 1;
    }
    if (w <= radius || h <= radius) return false;
  }
  return true;
}

export const floatVifDefinition: ExtractorDefinition<typeof floatVifOptions.defs> = {
  name: floatVifEntry.name,
  options: floatVifOptions,
  temporal: floatVifEntry.temporal,
  providedFeatures: (options) => vifProvidedFeatures(floatVifFeatureNames(options), options.debug),
  checkFormat(options, format: PictureFormat) {
    // libvmaf's picture_copy converts 8, 10, 12 and 16 bits; other depths it misreads
    if (![8, 10, 12, 16].includes(format.bitDepth)) {
      throw new VqError(`feature float_vif: ${format.bitDepth}-bit input is not supported (8, 10, 12 or 16 bits)`);
    }
    if (!isValidKernelScale(options.vif_kernelscale)) {
      throw new VqError(`feature float_vif: invalid vif_kernelscale ${options.vif_kernelscale} (libvmaf accepts only its listed kernel scales, e.g. 0.5, 1, 1.5, 2, 3)`);
    }
    const size = prescaledSize(format, options.vif_prescale);
    if (options.vif_prescale_method === "bilinear" && size.width > BILINEAR_MAX_WIDTH) {
      throw new VqError(`feature float_vif: bilinear prescaling supports at most ${BILINEAR_MAX_WIDTH} columns (got ${size.width})`);
    }
    if (!floatVifMinimumFits(size.width, size.height, options.vif_kernelscale)) {
      throw new VqError(`feature float_vif: a ${size.width}x${size.height} picture is too small for vif_kernelscale ${options.vif_kernelscale} (a filter would reach past a scale's mirrored border)`);
    }
  },
};
