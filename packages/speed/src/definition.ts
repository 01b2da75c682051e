import { defineOptions, VqError, type ExtractorDefinition, type OptionValues, type PictureFormat } from "@vq/core";
import { isValidKernelScale } from "@vq/core";
import { PRESCALE_METHODS } from "./prescale.ts";
import { speedGeometry, type PlaneSize } from "./speed-geometry.ts";

/**
 * The options both SpEED extractors share, as libvmaf's option tables declare them
 * (speed.c): every one is a feature parameter, so non-default values name the outputs.
 */
const sharedOptions = {
  speed_kernelscale: {
    type: "double",
    default: 1.0,
    min: 0.1,
    max: 4.0,
    alias: "ks",
    featureParam: true,
    help: "scaling factor for the gaussian kernel (2.0 means multiplying the standard deviation by 2 and enlarge the kernel size accordingly",
  },
  speed_prescale: {
    type: "double",
    default: 1.0,
    min: 0.1,
    max: 4.0,
    alias: "ps",
    featureParam: true,
    help: "scaling factor for the frame (2.0 means making the image twice as large on each dimension)",
  },
  speed_prescale_method: {
    type: "string",
    default: "nearest",
    choices: PRESCALE_METHODS,
    alias: "psm",
    featureParam: true,
    help: "scaling method for the frame, supported options: [nearest, bilinear, bicubic, lanczos4]",
  },
  speed_sigma_nn: { type: "double", default: 0.29, min: 0.1, max: 2.0, alias: "snn", featureParam: true, help: "standard deviation of neural noise" },
  speed_nn_floor: { type: "double", default: 0.0, min: 0.0, max: 1.0, alias: "nnf", featureParam: true, help: "neural noise floor, expressed in percentage of sigma_nn" },
  speed_max_val: {
    type: "double",
    default: 1000.0,
    min: 0.0,
    max: 1000.0,
    alias: "mxv",
    featureParam: true,
    help: "maximum value allowed; larger values will be clipped to this value",
  },
} as const;

export const speedChromaOptions = defineOptions("speed_chroma", {
  ...sharedOptions,
  speed_weight_var_mode: { type: "int", default: 0, min: 0, max: 6, alias: "wvm", featureParam: true, help: "different approaches to perform variance-absed weighting" },
});

export const speedTemporalOptions = defineOptions("speed_temporal", {
  ...sharedOptions,
  speed_use_ref_diff: { type: "bool", default: false, alias: "urd", featureParam: true, help: "debug mode: enable additional output" },
});

export type SpeedChromaOptions = OptionValues<typeof speedChromaOptions.defs>;
export type SpeedTemporalOptions = OptionValues<typeof speedTemporalOptions.defs>;
/** What the SpEED core needs from either extractor's options. */
export type SpeedOptions = Pick<SpeedChromaOptions, keyof typeof sharedOptions> & { speed_weight_var_mode: number };

/** libvmaf's provided feature names and their aliases (feature/alias.c). */
export const SPEED_FEATURES = {
  u: "Speed_chroma_feature_speed_chroma_u_score",
  v: "Speed_chroma_feature_speed_chroma_v_score",
  uv: "Speed_chroma_feature_speed_chroma_uv_score",
  temporal: "Speed_temporal_feature_speed_temporal_score",
} as const;

const SPEED_ALIASES: Record<string, string> = {
  [SPEED_FEATURES.u]: "speed_chroma_u",
  [SPEED_FEATURES.v]: "speed_chroma_v",
  [SPEED_FEATURES.uv]: "speed_chroma_uv",
  [SPEED_FEATURES.temporal]: "speed_temporal",
};

function alias(name: string): string {
  return SPEED_ALIASES[name] ?? name;
}

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
  const name = (raw: string) => alias(speedChromaOptions.featureName(raw, options, alias));
  return { u: name(SPEED_FEATURES.u), v: name(SPEED_FEATURES.v), uv: name(SPEED_FEATURES.uv) };
}

export function speedTemporalName(options: SpeedTemporalOptions): string {
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
  name: "speed_chroma",
  options: speedChromaOptions,
  temporal: false,
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
  name: "speed_temporal",
  options: speedTemporalOptions,
  temporal: true, // compares each frame with the one before
  providedFeatures(options) {
    return [speedTemporalName(options)];
  },
  checkFormat(options, format) {
    checkBitDepth("speed_temporal", format);
    checkKernelScale("speed_temporal", options.speed_kernelscale);
    speedGeometry(format, options.speed_prescale, `feature speed_temporal: a ${format.width}x${format.height} picture`);
  },
};
