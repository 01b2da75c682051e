// vif's and float_vif's catalogue entries (adr/0022-extractor-catalogue.md): their facts
// only, no code that computes them; the code is loaded on use through `load`.
import { defineOptions, FRAME_SCALING_OPTIONS, PRESCALE_METHODS, type CatalogueEntry, type OptionDef } from "@vq/core";

/** libvmaf's DEFAULT_VIF_ENHN_GAIN_LIMIT: the default and also the option's upper bound. */
export const DEFAULT_VIF_ENHN_GAIN_LIMIT = 100.0;

/** float_vif's frame prescaling methods, as libvmaf names them (SpEED shares them). */
export { PRESCALE_METHODS };

/** The options integer vif and float_vif share (integer_vif.c, float_vif.c). */
const SHARED = {
  debug: { type: "bool", default: false, addsOutputs: true, help: "debug mode: enable additional output" },
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
} as const satisfies Record<string, OptionDef>;

/** The options of libvmaf's integer `vif` extractor (integer_vif.c), with types, defaults, ranges, flags and aliases. */
export const vifOptions = defineOptions("vif", { ...SHARED });

/** The options of libvmaf's `float_vif` extractor (float_vif.c). */
export const floatVifOptions = defineOptions("float_vif", {
  debug: SHARED.debug,
  vif_enhn_gain_limit: SHARED.vif_enhn_gain_limit,
  vif_kernelscale: FRAME_SCALING_OPTIONS.kernelscale,
  vif_prescale: FRAME_SCALING_OPTIONS.prescale,
  vif_scale1_min_val: { type: "double", default: 0.0, min: 0.0, max: 1.0, alias: "s1miv", featureParam: true, help: "minimum value allowed; smaller values will be set to this value" },
  vif_scale2_min_val: { type: "double", default: 0.0, min: 0.0, max: 1.0, alias: "s2miv", featureParam: true, help: "minimum value allowed; smaller values will be set to this value" },
  vif_scale3_min_val: { type: "double", default: 0.0, min: 0.0, max: 1.0, alias: "s3miv", featureParam: true, help: "minimum value allowed; smaller values will be set to this value" },
  vif_prescale_method: { ...FRAME_SCALING_OPTIONS.prescaleMethod, alias: "pm" },
  vif_sigma_nsq: { type: "double", default: 2.0, min: 0.0, max: 5.0, alias: "snsq", featureParam: true, help: "neural noise variance" },
  vif_skip_scale0: SHARED.vif_skip_scale0,
});

/** The provided names of one vif extractor, in the order libvmaf writes them, before aliasing and option suffixes. */
function vifNames(prefix: "VMAF_integer_feature" | "VMAF_feature", debugPrefix: "integer_vif" | "vif") {
  const scales = [0, 1, 2, 3];
  return {
    scale: scales.map((s) => `${prefix}_vif_scale${s}_score`),
    vif: debugPrefix,
    num: `${debugPrefix}_num`,
    den: `${debugPrefix}_den`,
    numScale: scales.map((s) => `${debugPrefix}_num_scale${s}`),
    denScale: scales.map((s) => `${debugPrefix}_den_scale${s}`),
  } as const;
}

/** integer vif's provided feature names (integer_vif.c). */
export const VIF_FEATURES = vifNames("VMAF_integer_feature", "integer_vif");
/** float_vif's provided feature names (float_vif.c). */
export const FLOAT_VIF_FEATURES = vifNames("VMAF_feature", "vif");

type Names = ReturnType<typeof vifNames>;
const provides = (n: Names) => [...n.scale, n.vif, n.num, n.den, ...n.numScale, ...n.denScale];
/** libvmaf's alias table (feature/alias.c) for the scale scores; the debug names have none. */
const aliases = (n: Names, to: string) => Object.fromEntries(n.scale.map((name, s) => [name, `${to}_scale${s}`]));

export const vifEntry: CatalogueEntry<typeof vifOptions.defs> = {
  name: "vif",
  options: vifOptions,
  provides: provides(VIF_FEATURES),
  aliases: aliases(VIF_FEATURES, "integer_vif"),
  temporal: false,
  lumaOnly: () => true,
  load: { cpu: () => import("./cpu/vif-feature-cpu.ts").then((m) => m.vifCpuFeature), gpu: () => import("./index.ts").then((m) => m.vifFeature) },
};

export const floatVifEntry: CatalogueEntry<typeof floatVifOptions.defs> = {
  name: "float_vif",
  options: floatVifOptions,
  provides: provides(FLOAT_VIF_FEATURES),
  aliases: aliases(FLOAT_VIF_FEATURES, "vif"),
  temporal: false,
  lumaOnly: () => true,
  load: { cpu: () => import("./index.ts").then((m) => m.floatVifFeature) },
};
