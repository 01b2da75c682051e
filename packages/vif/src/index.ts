import type { FeatureEntry } from "@vq/core";
import type { GpuFeatureEntry } from "@vq/gpu-core";
import type { vifDefinition } from "./definition.ts";
import { vifCpuFeature } from "./cpu/vif-feature-cpu.ts";
import { VifGpu } from "./gpu/vif-gpu.ts";
import { floatVifDefinition } from "./float-vif-definition.ts";
import { FloatVifCpu } from "./cpu/float-vif-cpu.ts";
import { floatVifKernelsModule, FloatVifWasm } from "./cpu/float-vif-wasm.ts";

export { vifDefinition, vifOptions, vifFeatureNames, VIF_FEATURES, VIF_MIN_SIZE, DEFAULT_VIF_ENHN_GAIN_LIMIT } from "./definition.ts";
export { vifEntry, floatVifEntry } from "./catalogue.ts";
export type { VifOptions, VifFeatureNames } from "./definition.ts";
export { VifCpu, createVifCpu } from "./cpu/vif-cpu.ts";
export { VifGpu, createVifGpu } from "./gpu/vif-gpu.ts";

/** What the CLI and the scoring pipeline need to run vif on either backend. */
export const vifFeature: GpuFeatureEntry<typeof vifDefinition.options.defs> = {
  ...vifCpuFeature,
  gpu: (options) => new VifGpu(options),
};

export { floatVifDefinition, floatVifOptions, floatVifFeatureNames, FLOAT_VIF_FEATURES } from "./float-vif-definition.ts";
export type { FloatVifOptions, FloatVifFeatureNames } from "./float-vif-definition.ts";
export { FloatVifCpu, createFloatVifCpu } from "./cpu/float-vif-cpu.ts";
export { FloatVifWasm, createFloatVifWasm, floatVifKernelsModule } from "./cpu/float-vif-wasm.ts";

/**
 * libvmaf's `float_vif` (vif_scale0..3), for the CLI and the scoring pipeline: the
 * WebAssembly SIMD kernels where they run, else the TypeScript reference (ADR 0040;
 * VQ_CPU_KERNELS forces either).
 */
export const floatVifFeature: FeatureEntry<typeof floatVifDefinition.options.defs> = {
  definition: floatVifDefinition,
  cpu: (options) => {
    const module = floatVifKernelsModule();
    return module ? new FloatVifWasm(options, module) : new FloatVifCpu(options);
  },
};
