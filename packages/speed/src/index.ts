import type { GpuFeatureEntry } from "@vq/gpu-core";
import { speedChromaDefinition, speedTemporalDefinition } from "./definition.ts";
import { SpeedChromaCpu } from "./cpu/speed-chroma-cpu.ts";
import { SpeedChromaGpu } from "./gpu/speed-chroma-gpu.ts";
import { SpeedTemporalCpu } from "./cpu/speed-temporal-cpu.ts";
import { SpeedTemporalGpu } from "./gpu/speed-temporal-gpu.ts";
import { SpeedChromaWasm } from "./cpu/speed-chroma-wasm.ts";
import { SpeedTemporalWasm } from "./cpu/speed-temporal-wasm.ts";
import { speedKernelsModule } from "./cpu/speed-wasm-passes.ts";

export {
  speedChromaDefinition,
  speedChromaOptions,
  speedChromaNames,
  speedTemporalDefinition,
  speedTemporalOptions,
  speedTemporalName,
  chromaPlaneSize,
  SPEED_FEATURES,
} from "./definition.ts";
export type { SpeedChromaOptions, SpeedTemporalOptions, SpeedChromaNames } from "./definition.ts";
export { SpeedChromaCpu, createSpeedChromaCpu } from "./cpu/speed-chroma-cpu.ts";
export { SpeedTemporalCpu, createSpeedTemporalCpu } from "./cpu/speed-temporal-cpu.ts";
export { SpeedChromaWasm } from "./cpu/speed-chroma-wasm.ts";
export { SpeedTemporalWasm } from "./cpu/speed-temporal-wasm.ts";
export { speedKernelsModule } from "./cpu/speed-wasm-passes.ts";
export { SpeedChromaGpu, createSpeedChromaGpu } from "./gpu/speed-chroma-gpu.ts";
export { SpeedTemporalGpu, createSpeedTemporalGpu } from "./gpu/speed-temporal-gpu.ts";
export { speedGeometry, SPEED_MIN_SIZE } from "./numerics/speed-geometry.ts";
export type { SpeedGeometry } from "./numerics/speed-geometry.ts";

/**
 * libvmaf's speed_chroma (speed_chroma_u, _v, _uv), for the CLI and the scoring pipeline. On
 * the CPU, the WebAssembly SIMD kernels where they run, else the TypeScript reference (ADR
 * 0040; VQ_CPU_KERNELS forces either).
 */
export const speedChromaFeature: GpuFeatureEntry<typeof speedChromaDefinition.options.defs> = {
  definition: speedChromaDefinition,
  cpu: (options) => {
    const module = speedKernelsModule();
    return module ? new SpeedChromaWasm(options, module) : new SpeedChromaCpu(options);
  },
  gpu: (options) => new SpeedChromaGpu(options),
};

/** libvmaf's speed_temporal, for the CLI and the scoring pipeline (the CPU's kernels chosen as speed_chroma's). */
export const speedTemporalFeature: GpuFeatureEntry<typeof speedTemporalDefinition.options.defs> = {
  definition: speedTemporalDefinition,
  cpu: (options) => {
    const module = speedKernelsModule();
    return module ? new SpeedTemporalWasm(options, module) : new SpeedTemporalCpu(options);
  },
  gpu: (options) => new SpeedTemporalGpu(options),
};
