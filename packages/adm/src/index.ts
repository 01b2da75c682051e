import type { FeatureEntry } from "@vq/core";
import type { GpuFeatureEntry } from "@vq/gpu-core";
import { AdmCpu } from "./cpu/adm-cpu.ts";
import { AdmWasm, admKernelsModule } from "./cpu/adm-wasm.ts";
import { AdmGpu } from "./gpu/adm-gpu.ts";
import { admDefinition } from "./definition.ts";
import { FloatAdmCpu } from "./float/float-adm-cpu.ts";
import { floatAdmDefinition } from "./float-adm-definition.ts";

export { admDefinition, admOptions, admFeatureName, ADM_FEATURES, ADM_DEBUG_FEATURES, ADM_MIN_SIZE } from "./definition.ts";
export type { AdmOptions } from "./definition.ts";
export { AdmCpu, createAdmCpu } from "./cpu/adm-cpu.ts";
export { AdmWasm, admKernelsModule } from "./cpu/adm-wasm.ts";
export { AdmGpu, createAdmGpu } from "./gpu/adm-gpu.ts";
export { SIMD_PROFILES } from "./cpu/adm-pipeline.ts";
export type { SimdProfile } from "./cpu/adm-pipeline.ts";

/**
 * What the CLI and the scoring pipeline need to run adm on either backend. On the CPU,
 * the WebAssembly SIMD kernels where they run, else the TypeScript reference (ADR 0040;
 * VQ_CPU_KERNELS forces either).
 */
export const admFeature: GpuFeatureEntry<typeof admDefinition.options.defs> = {
  definition: admDefinition,
  cpu: (options) => {
    const module = admKernelsModule();
    return module ? new AdmWasm(options, module) : new AdmCpu(options);
  },
  gpu: (options) => new AdmGpu(options),
};

export { floatAdmDefinition, floatAdmOptions, floatAdmFeatureName, FLOAT_ADM_FEATURES, FLOAT_ADM_DEBUG_FEATURES } from "./float-adm-definition.ts";
export type { FloatAdmOptions } from "./float-adm-definition.ts";
export { FloatAdmCpu, createFloatAdmCpu } from "./float/float-adm-cpu.ts";

/** libvmaf's float_adm (float twin of adm), CPU only. */
export const floatAdmFeature: FeatureEntry<typeof floatAdmDefinition.options.defs> = {
  definition: floatAdmDefinition,
  cpu: (options) => new FloatAdmCpu(options),
};
