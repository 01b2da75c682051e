import { defineOptions, VqError, type ExtractorDefinition, type OptionValues, type PictureFormat } from "@vq/core";

/** libvmaf's DEFAULT_VIF_ENHN_GAIN_LIMIT: the default and also the option's upper bound. */
export const DEFAULT_VIF_ENHN_GAIN_LIMIT = 100.0;

/** The options of libvmaf's integer `vif` extractor (integer_vif.c), with types, defaults, ranges, flags and aliases. */
export const vifOptions = defineOptions("vif", {
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
  vif_skip_scale0: { type: "bool", default: false, alias: "ssclz", featureParam: true, help: "when set, skip scale 0 calculations" },
});

export type VifOptions = OptionValues<typeof vifOptions.defs>;

/** libvmaf's provided feature names, in the order it writes them, before aliasing and option suffixes. */
export const VIF_FEATURES = {
  scale: ["VMAF_integer_feature_vif_scale0_score", "VMAF_integer_feature_vif_scale1_score", "VMAF_integer_feature_vif_scale2_score", "VMAF_integer_feature_vif_scale3_score"],
  vif: "integer_vif",
  num: "integer_vif_num",
  den: "integer_vif_den",
  numScale: ["integer_vif_num_scale0", "integer_vif_num_scale1", "integer_vif_num_scale2", "integer_vif_num_scale3"],
  denScale: ["integer_vif_den_scale0", "integer_vif_den_scale1", "integer_vif_den_scale2", "integer_vif_den_scale3"],
} as const;

/** libvmaf's alias table (feature/alias.c) for these names; the debug names have none. */
const VIF_ALIASES: Record<string, string> = {
  [VIF_FEATURES.scale[0]]: "integer_vif_scale0",
  [VIF_FEATURES.scale[1]]: "integer_vif_scale1",
  [VIF_FEATURES.scale[2]]: "integer_vif_scale2",
  [VIF_FEATURES.scale[3]]: "integer_vif_scale3",
};

function alias(name: string): string {
  return VIF_ALIASES[name] ?? name;
}

export interface VifFeatureNames {
  readonly scale: readonly string[];
  readonly vif: string;
  readonly num: string;
  readonly den: string;
  readonly numScale: readonly string[];
  readonly denScale: readonly string[];
}

/**
 * The keys libvmaf's output carries: with default feature params the writer aliases the
 * plain name; otherwise the extractor already wrote `alias + _suffixes`, which no alias matches.
 */
export function vifFeatureNames(options: VifOptions): VifFeatureNames {
  const name = (raw: string) => alias(vifOptions.featureName(raw, options, alias));
  return {
    scale: VIF_FEATURES.scale.map(name),
    vif: name(VIF_FEATURES.vif),
    num: name(VIF_FEATURES.num),
    den: name(VIF_FEATURES.den),
    numScale: VIF_FEATURES.numScale.map(name),
    denScale: VIF_FEATURES.denScale.map(name),
  };
}

/**
 * The smallest luma plane whose mirrored borders stay inside the picture at every scale:
 * scale 3 (1/8 size) must keep 2 rows and columns for its 3-tap filter.
 */
export const VIF_MIN_SIZE = 16;

export const vifDefinition: ExtractorDefinition<typeof vifOptions.defs> = {
  name: "vif",
  options: vifOptions,
  temporal: false,
  providedFeatures(options) {
    const n = vifFeatureNames(options);
    if (!options.debug) return [...n.scale];
    const perScale = [0, 1, 2, 3].flatMap((s) => [n.numScale[s]!, n.denScale[s]!]);
    return [...n.scale, n.vif, n.num, n.den, ...perScale];
  },
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
