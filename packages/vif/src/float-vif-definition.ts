import { defineOptions, isValidKernelScale, vifFilterSize, VqError, type ExtractorDefinition, type OptionValues, type PictureFormat } from "@vq/core";
import { DEFAULT_VIF_ENHN_GAIN_LIMIT } from "./definition.ts";
import { prescaledSize, PRESCALE_METHODS, BILINEAR_MAX_WIDTH } from "./float-vif-prescale.ts";

/** The options of libvmaf's `float_vif` extractor (float_vif.c), with types, defaults, ranges, flags and aliases. */
export const floatVifOptions = defineOptions("float_vif", {
  debug: { type: "bool", default: false, help: "debug mode: enable additional output" },
  vif_enhn_gain_limit: {
    type: "double",
    default: DEFAULT_VIF_ENHN_GAIN_LIMIT,
    min: 1.0,
    max: DEFAULT_VIF_ENHN_GAIN_LIMIT,
    alias: "egl",
    featureParam: true,
    help: "enhancement gain imposed on vif, must be >= 1.0, where 1.0 means the gain is completely disabled",
  },
  vif_kernelscale: {
    type: "double",
    default: 1.0,
    min: 0.1,
    max: 4.0,
    alias: "ks",
    featureParam: true,
    help: "scaling factor for the gaussian kernel (2.0 means multiplying the standard deviation by 2 and enlarge the kernel size accordingly",
  },
  vif_prescale: {
    type: "double",
    default: 1.0,
    min: 0.1,
    max: 4.0,
    alias: "ps",
    featureParam: true,
    help: "scaling factor for the frame (2.0 means making the image twice as large on each dimension)",
  },
  vif_scale1_min_val: { type: "double", default: 0.0, min: 0.0, max: 1.0, alias: "s1miv", featureParam: true, help: "minimum value allowed; smaller values will be set to this value" },
  vif_scale2_min_val: { type: "double", default: 0.0, min: 0.0, max: 1.0, alias: "s2miv", featureParam: true, help: "minimum value allowed; smaller values will be set to this value" },
  vif_scale3_min_val: { type: "double", default: 0.0, min: 0.0, max: 1.0, alias: "s3miv", featureParam: true, help: "minimum value allowed; smaller values will be set to this value" },
  vif_prescale_method: {
    type: "string",
    default: "nearest",
    choices: PRESCALE_METHODS,
    alias: "pm",
    featureParam: true,
    help: "scaling method for the frame, supported options: [nearest, bilinear, bicubic, lanczos4]",
  },
  vif_sigma_nsq: { type: "double", default: 2.0, min: 0.0, max: 5.0, alias: "snsq", featureParam: true, help: "neural noise variance" },
  vif_skip_scale0: { type: "bool", default: false, alias: "ssclz", featureParam: true, help: "when set, skip scale 0 calculations" },
});

export type FloatVifOptions = OptionValues<typeof floatVifOptions.defs>;

/** libvmaf's provided feature names, in the order it writes them, before aliasing and option suffixes. */
export const FLOAT_VIF_FEATURES = {
  scale: ["VMAF_feature_vif_scale0_score", "VMAF_feature_vif_scale1_score", "VMAF_feature_vif_scale2_score", "VMAF_feature_vif_scale3_score"],
  vif: "vif",
  num: "vif_num",
  den: "vif_den",
  numScale: ["vif_num_scale0", "vif_num_scale1", "vif_num_scale2", "vif_num_scale3"],
  denScale: ["vif_den_scale0", "vif_den_scale1", "vif_den_scale2", "vif_den_scale3"],
} as const;

/** libvmaf's alias table (feature/alias.c) for these names; the debug names have none. */
const FLOAT_VIF_ALIASES: Record<string, string> = {
  [FLOAT_VIF_FEATURES.scale[0]]: "vif_scale0",
  [FLOAT_VIF_FEATURES.scale[1]]: "vif_scale1",
  [FLOAT_VIF_FEATURES.scale[2]]: "vif_scale2",
  [FLOAT_VIF_FEATURES.scale[3]]: "vif_scale3",
};

function alias(name: string): string {
  return FLOAT_VIF_ALIASES[name] ?? name;
}

export interface FloatVifFeatureNames {
  readonly scale: readonly string[];
  readonly vif: string;
  readonly num: string;
  readonly den: string;
  readonly numScale: readonly string[];
  readonly denScale: readonly string[];
}

/** The keys libvmaf's output carries (see vifFeatureNames: alias, then option suffixes). */
export function floatVifFeatureNames(options: FloatVifOptions): FloatVifFeatureNames {
  const name = (raw: string) => alias(floatVifOptions.featureName(raw, options, alias));
  return {
    scale: FLOAT_VIF_FEATURES.scale.map(name),
    vif: name(FLOAT_VIF_FEATURES.vif),
    num: name(FLOAT_VIF_FEATURES.num),
    den: name(FLOAT_VIF_FEATURES.den),
    numScale: FLOAT_VIF_FEATURES.numScale.map(name),
    denScale: FLOAT_VIF_FEATURES.denScale.map(name),
  };
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
  name: "float_vif",
  options: floatVifOptions,
  temporal: false,
  providedFeatures(options) {
    const n = floatVifFeatureNames(options);
    if (!options.debug) return [...n.scale];
    const perScale = [0, 1, 2, 3].flatMap((s) => [n.numScale[s]!, n.denScale[s]!]);
    return [...n.scale, n.vif, n.num, n.den, ...perScale];
  },
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
