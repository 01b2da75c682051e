import type { FeatureEntry } from "@vq/core";
import type { GpuFeatureEntry } from "@vq/gpu-core";
import { AdmCpu } from "./cpu/adm-cpu.ts";
import { AdmWasm, admKernelsModule } from "./cpu/adm-wasm.ts";
import { AdmGpu } from "./gpu/adm-gpu.ts";
import { admDefinition } from "./definition.ts";
import { FloatAdmCpu } from "./float/float-adm-cpu.ts";
import { FloatAdmWasm, floatAdmKernelsModule } from "./float/float-adm-wasm.ts";
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
export { FloatAdmWasm, createFloatAdmWasm, floatAdmKernelsModule } from "./float/float-adm-wasm.ts";

/**
 * libvmaf's float_adm (float twin of adm), CPU only: the WebAssembly SIMD kernels where they
 * run, else the TypeScript reference (ADR 0040; VQ_CPU_KERNELS forces either). The kernels
 * raise to the power p as x*x*x, libvmaf's case for adm_p_norm 3 (the default, and every
 * model's); any other norm is powf per coefficient, which only the TypeScript code (libm's
 * emulation) computes exactly, so those runs take FloatAdmCpu.
 */
export const floatAdmFeature: FeatureEntry<typeof floatAdmDefinition.options.defs> = {
  definition: floatAdmDefinition,
  cpu: (options) => {
    const module = options.adm_p_norm === 3 ? floatAdmKernelsModule() : undefined;
    return module ? new FloatAdmWasm(options, module) : new FloatAdmCpu(options);
  },
};
