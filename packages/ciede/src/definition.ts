import { VqError, type ExtractorDefinition, type OptionValues } from "@vq/core";
import { CIEDE_FEATURE, ciedeEntry, ciedeOptions } from "./catalogue.ts";
import { ChromaUpsampling } from "./colour/chroma-upsampling.ts";

export { CIEDE_FEATURE, ciedeOptions } from "./catalogue.ts";

export type CiedeOptions = OptionValues<typeof ciedeOptions.defs>;

/** Bit depths libvmaf's ciede reads (its extract() rejects every other one). */
const BIT_DEPTHS = [8, 10, 12, 16];

export const ciedeDefinition: ExtractorDefinition<typeof ciedeOptions.defs> = {
  name: ciedeEntry.name,
  options: ciedeOptions,
  temporal: ciedeEntry.temporal,
  providedFeatures: () => [CIEDE_FEATURE],
  checkFormat(_options, format) {
    if (format.pixelFormat === "400") {
      throw new VqError("feature ciede: 4:0:0 (grayscale) input has no colour to compare (ciede needs Cb and Cr planes)");
    }
    if (!BIT_DEPTHS.includes(format.bitDepth)) {
      throw new VqError(`feature ciede: ${format.bitDepth}-bit input is not supported (libvmaf's ciede takes 8, 10, 12 or 16 bits)`);
    }
    if (format.pixelFormat === "422" && ChromaUpsampling.lastRowRead(format) >= format.height) {
      throw new VqError(`feature ciede: 4:2:2 input ${format.width}x${format.height} is too short: libvmaf's chroma upsampling reads past the chroma planes`);
    }
  },
};
