import type { FeatureEntry } from "@vq/core";
import type { GpuFeatureEntry } from "@vq/gpu-core";
import type { vifDefinition } from "./definition.ts";
import { vifCpuFeature } from "./vif-feature-cpu.ts";
import { VifGpu } from "./vif-gpu.ts";
import { floatVifDefinition } from "./float-vif-definition.ts";
import { FloatVifCpu } from "./float-vif-cpu.ts";

export { vifDefinition, vifOptions, vifFeatureNames, VIF_FEATURES, VIF_MIN_SIZE, DEFAULT_VIF_ENHN_GAIN_LIMIT } from "./definition.ts";
export { vifEntry, floatVifEntry } from "./catalogue.ts";
export type { VifOptions, VifFeatureNames } from "./definition.ts";
export { VifCpu, createVifCpu } from "./vif-cpu.ts";
export { VifScaleStatistic } from "./vif-statistic.ts";
export { VifDecimator } from "./vif-decimate.ts";
export { VifWorkspace } from "./vif-workspace.ts";
export { writeVifScores } from "./vif-scores.ts";
export { VifGpu, createVifGpu, VIF_KERNELS } from "./vif-gpu.ts";
export { writeScaleNumDen } from "./vif-sums.ts";
export type { VifScaleSums } from "./vif-sums.ts";
export { createLog2Table, fixedLog2 } from "./log2-table.ts";
export { VIF_FILTERS, VIF_FILTER_HALF, VIF_SCALES } from "./vif-filters.ts";

/** What the CLI and the scoring pipeline need to run vif on either backend. */
export const vifFeature: GpuFeatureEntry<typeof vifDefinition.options.defs> = {
  ...vifCpuFeature,
  gpu: (options) => new VifGpu(options),
};

export { floatVifDefinition, floatVifOptions, floatVifFeatureNames, FLOAT_VIF_FEATURES } from "./float-vif-definition.ts";
export type { FloatVifOptions, FloatVifFeatureNames } from "./float-vif-definition.ts";
export { FloatVifCpu, createFloatVifCpu } from "./float-vif-cpu.ts";
// libvmaf's vif_tools Gaussians live in @vq/core (SpEED uses them too).
export { vifFilter as floatVifFilter, vifFilterSize as floatVifFilterSize } from "@vq/core";
export { log2fApprox } from "./float-log2.ts";
export { writeFloatVifScores } from "./float-vif-scores.ts";

/** libvmaf's `float_vif` (vif_scale0..3), for the CLI and the scoring pipeline. */
export const floatVifFeature: FeatureEntry<typeof floatVifDefinition.options.defs> = {
  definition: floatVifDefinition,
  cpu: (options) => new FloatVifCpu(options),
};
