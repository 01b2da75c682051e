import { aliasOf, isValidKernelScale, VqError, type ExtractorDefinition, type OptionValues, type PictureFormat } from "@vq/core";
import { SPEED_FEATURES, speedChromaEntry, speedChromaOptions, speedTemporalEntry, speedTemporalOptions, type sharedOptions } from "./catalogue.ts";
import { speedGeometry, type PlaneSize } from "./numerics/speed-geometry.ts";

export { SPEED_FEATURES, speedChromaOptions, speedTemporalOptions } from "./catalogue.ts";

export type SpeedChromaOptions = OptionValues<typeof speedChromaOptions.defs>;
export type SpeedTemporalOptions = OptionValues<typeof speedTemporalOptions.defs>;
/** What the SpEED core needs from either extractor's options. */
export type SpeedOptions = Pick<SpeedChromaOptions, keyof typeof sharedOptions> & { speed_weight_var_mode: number };

export interface SpeedChromaNames {
  readonly u: string;
  readonly v: string;
  readonly uv: string;
}

/**
 * The keys libvmaf's output carries: the alias, plus `_key_value` suffixes for non-default
 * options sorted by option name (`speed_chroma_uv_mxv_45_nnf_0.1_snn_0.19_wvm_5`).
 */
export function speedChromaNames(options: SpeedChromaOptions): SpeedChromaNames {
  const alias = (n: string) => aliasOf(speedChromaEntry, n);
  const name = (raw: string) => alias(speedChromaOptions.featureName(raw, options, alias));
  return { u: name(SPEED_FEATURES.u), v: name(SPEED_FEATURES.v), uv: name(SPEED_FEATURES.uv) };
}

export function speedTemporalName(options: SpeedTemporalOptions): string {
  const alias = (n: string) => aliasOf(speedTemporalEntry, n);
  return alias(speedTemporalOptions.featureName(SPEED_FEATURES.temporal, options, alias));
}

/** The size of the planes speed_chroma scores: libvmaf halves with truncation (4:2:0, 4:2:2). */
export function chromaPlaneSize(format: PictureFormat): PlaneSize {
  switch (format.pixelFormat) {
    case "420":
      return { width: format.width >> 1, height: format.height >> 1 };
    case "422":
      return { width: format.width >> 1, height: format.height };
    case "444":
      return { width: format.width, height: format.height };
    case "400":
      throw new VqError("feature speed_chroma: 4:0:0 input has no chroma planes to score");
  }
}

/** picture_copy turns samples into floats for 8, 10, 12 and 16 bits only. */
function checkBitDepth(feature: string, format: PictureFormat): void {
  if (![8, 10, 12, 16].includes(format.bitDepth)) {
    throw new VqError(`feature ${feature}: ${format.bitDepth}-bit input is not supported (libvmaf's SpEED takes 8, 10, 12 or 16 bits)`);
  }
}

function checkKernelScale(feature: string, kernelScale: number): void {
  if (!isValidKernelScale(kernelScale)) {
    throw new VqError(`feature ${feature}: speed_kernelscale=${kernelScale} is not one of the kernel scales libvmaf accepts (1, 0.5, 1.5, 2, 2/3, 2.4, 360/97, 4/3, 3.5/3, 3.75/3, 4.25/3, 5/3, 3, 1/2.25, 1.4746, 1.54, 1.6, 1.06667, 0.711111, 0.74074, 1.111111)`);
  }
}

export const speedChromaDefinition: ExtractorDefinition<typeof speedChromaOptions.defs> = {
  name: speedChromaEntry.name,
  options: speedChromaOptions,
  temporal: speedChromaEntry.temporal,
  providedFeatures(options) {
    const n = speedChromaNames(options);
    return [n.u, n.v, n.uv];
  },
  checkFormat(options, format) {
    checkBitDepth("speed_chroma", format);
    checkKernelScale("speed_chroma", options.speed_kernelscale);
    const plane = chromaPlaneSize(format);
    speedGeometry(plane, options.speed_prescale, `feature speed_chroma: the chroma planes of a ${format.width}x${format.height} ${format.pixelFormat} picture`);
  },
};

export const speedTemporalDefinition: ExtractorDefinition<typeof speedTemporalOptions.defs> = {
  name: speedTemporalEntry.name,
  options: speedTemporalOptions,
  temporal: speedTemporalEntry.temporal, // compares each frame with the one before
  warmUpFrames: () => 1,
  providedFeatures(options) {
    return [speedTemporalName(options)];
  },
  checkFormat(options, format) {
    checkBitDepth("speed_temporal", format);
    checkKernelScale("speed_temporal", options.speed_kernelscale);
    speedGeometry(format, options.speed_prescale, `feature speed_temporal: a ${format.width}x${format.height} picture`);
  },
};
