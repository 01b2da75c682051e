import type { FeatureEntry } from "@vq/core";
import { vifDefinition } from "../definition.ts";
import { VifCpu } from "./vif-cpu.ts";
import { VifWasm, vifKernelsModule } from "./vif-wasm.ts";

/**
 * Integer vif on the CPU: what a CPU run loads (catalogue.ts's `load.cpu`), without the GPU
 * twin's code. The WebAssembly SIMD kernels where they run, else the TypeScript reference
 * (ADR 0040; VQ_CPU_KERNELS forces either).
 */
export const vifCpuFeature: FeatureEntry<typeof vifDefinition.options.defs> = {
  definition: vifDefinition,
  cpu: (options) => {
    const module = vifKernelsModule();
    return module ? new VifWasm(options, module) : new VifCpu(options);
  },
};
