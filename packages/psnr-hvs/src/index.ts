export { psnrHvsDefinition, psnrHvsOptions, PSNR_HVS_NAME, PSNR_HVS_PLANE_NAMES, libvmafPlaneSizes } from "./definition.ts";
export type { PsnrHvsOptions } from "./definition.ts";
export { PsnrHvsCpu, createPsnrHvsCpu } from "./psnr-hvs-cpu.ts";
export { PsnrHvsGpu, createPsnrHvsGpu } from "./psnr-hvs-gpu.ts";
export { PsnrHvsWasm, createPsnrHvsWasm, psnrHvsKernelsModule } from "./psnr-hvs-wasm.ts";
import type { GpuFeatureEntry } from "@vq/gpu-core";
import { psnrHvsDefinition } from "./definition.ts";
import { PsnrHvsCpu } from "./psnr-hvs-cpu.ts";
import { PsnrHvsGpu } from "./psnr-hvs-gpu.ts";
import { psnrHvsKernelsModule, PsnrHvsWasm } from "./psnr-hvs-wasm.ts";

/**
 * What the CLI and the scoring pipeline need to run psnr_hvs on either backend. On the CPU:
 * the WebAssembly SIMD kernels where they run, else the TypeScript reference (ADR 0040;
 * VQ_CPU_KERNELS forces either).
 */
export const psnrHvsFeature: GpuFeatureEntry<typeof psnrHvsDefinition.options.defs> = {
  definition: psnrHvsDefinition,
  cpu: (options) => {
    const module = psnrHvsKernelsModule();
    return module ? new PsnrHvsWasm(options, module) : new PsnrHvsCpu(options);
  },
  gpu: (options) => new PsnrHvsGpu(options),
};
