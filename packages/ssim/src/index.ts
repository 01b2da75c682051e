import type { GpuFeatureEntry } from "@vq/gpu-core";
import { floatMsSsimDefinition } from "./float-ms-ssim-definition.ts";
import { FloatMsSsimCpu } from "./cpu/float-ms-ssim-cpu.ts";
import { FloatMsSsimGpu } from "./gpu/float-ms-ssim-gpu.ts";
import { floatSsimDefinition } from "./float-ssim-definition.ts";
import { FloatSsimCpu } from "./cpu/float-ssim-cpu.ts";
import { FloatSsimGpu } from "./gpu/float-ssim-gpu.ts";
import { FloatMsSsimWasm } from "./cpu/float-ms-ssim-wasm.ts";
import { FloatSsimWasm } from "./cpu/float-ssim-wasm.ts";
import { ssimKernelsModule } from "./cpu/ssim-wasm-workspace.ts";

export { floatSsimDefinition, floatSsimOptions, FLOAT_SSIM_NAMES, ssimScale, ssimPictureSize } from "./float-ssim-definition.ts";
export type { FloatSsimOptions } from "./float-ssim-definition.ts";
export { floatMsSsimDefinition, floatMsSsimOptions, FLOAT_MS_SSIM_NAMES, MS_SSIM_SCALES, MS_SSIM_MIN_SIZE } from "./float-ms-ssim-definition.ts";
export type { FloatMsSsimOptions } from "./float-ms-ssim-definition.ts";
export { FloatSsimCpu, createFloatSsimCpu } from "./cpu/float-ssim-cpu.ts";
export { FloatMsSsimCpu, createFloatMsSsimCpu } from "./cpu/float-ms-ssim-cpu.ts";
export { FloatSsimWasm } from "./cpu/float-ssim-wasm.ts";
export { FloatMsSsimWasm } from "./cpu/float-ms-ssim-wasm.ts";
export { ssimKernelsModule } from "./cpu/ssim-wasm-workspace.ts";
export { FloatSsimGpu, createFloatSsimGpu } from "./gpu/float-ssim-gpu.ts";
export { FloatMsSsimGpu, createFloatMsSsimGpu } from "./gpu/float-ms-ssim-gpu.ts";

/**
 * libvmaf's `float_ssim` on either backend, for the CLI and the scoring pipeline. On the
 * CPU, the WebAssembly SIMD kernels where they run, else the TypeScript reference (ADR 0040;
 * VQ_CPU_KERNELS forces either).
 */
export const ssimFeature: GpuFeatureEntry<typeof floatSsimDefinition.options.defs> = {
  definition: floatSsimDefinition,
  cpu: (options) => {
    const module = ssimKernelsModule();
    return module ? new FloatSsimWasm(options, module) : new FloatSsimCpu(options);
  },
  gpu: (options) => new FloatSsimGpu(options),
};

/** libvmaf's `float_ms_ssim` on either backend, for the CLI and the scoring pipeline (the CPU's kernels chosen as float_ssim's). */
export const msSsimFeature: GpuFeatureEntry<typeof floatMsSsimDefinition.options.defs> = {
  definition: floatMsSsimDefinition,
  cpu: (options) => {
    const module = ssimKernelsModule();
    return module ? new FloatMsSsimWasm(options, module) : new FloatMsSsimCpu(options);
  },
  gpu: (options) => new FloatMsSsimGpu(options),
};
