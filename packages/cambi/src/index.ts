import type { GpuFeatureEntry } from "@vq/gpu-core";
import { CambiCpu } from "./cpu/cambi-cpu.ts";
import { CambiWasm, cambiKernelsModule } from "./cpu/cambi-wasm.ts";
import { CambiGpu } from "./gpu/cambi-gpu.ts";
import { cambiDefinition } from "./definition.ts";

export { cambiDefinition, cambiOptions, cambiScoreName, CAMBI_SOURCE, CAMBI_FULL_REFERENCE } from "./definition.ts";
export type { CambiOptions } from "./definition.ts";
export { CambiCpu, createCambiCpu } from "./cpu/cambi-cpu.ts";
export { CambiWasm, cambiKernelsModule } from "./cpu/cambi-wasm.ts";
export { CambiGpu, createCambiGpu } from "./gpu/cambi-gpu.ts";

/**
 * What the CLI and the scoring pipeline need to run cambi on either backend. On the CPU,
 * the WebAssembly SIMD kernels where they run, else the TypeScript reference (ADR 0040;
 * VQ_CPU_KERNELS forces either).
 */
export const cambiFeature: GpuFeatureEntry<typeof cambiDefinition.options.defs> = {
  definition: cambiDefinition,
  cpu: (options) => {
    const module = cambiKernelsModule();
    return module ? new CambiWasm(options, module) : new CambiCpu(options);
  },
  gpu: (options) => new CambiGpu(options),
};
