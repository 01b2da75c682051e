import type { FeatureEntry } from "@vq/core";
import type { GpuFeatureEntry } from "@vq/gpu-core";
import { motionDefinition } from "./definition.ts";
import { MotionCpu } from "./motion-cpu.ts";
import { MotionGpu } from "./motion-gpu.ts";
import { MotionWasm, motionKernelsModule } from "./motion-wasm.ts";
import { floatMotionDefinition } from "./float-definition.ts";
import { FloatMotionCpu } from "./float-motion-cpu.ts";
import { floatMotionKernelsModule, FloatMotionWasm } from "./float-motion-wasm.ts";

export { motionDefinition, motionOptions, motionFeatureNames, motionFrameDistance, MOTION_FEATURES } from "./definition.ts";
export type { MotionOptions, MotionFeatureNames } from "./definition.ts";
export { MotionCpu, createMotionCpu } from "./motion-cpu.ts";
export { MotionWasm, motionKernelsModule } from "./motion-wasm.ts";
export { MotionGpu, createMotionGpu } from "./motion-gpu.ts";

/**
 * What the CLI and the scoring pipeline need to run libvmaf's integer motion on either
 * backend; on the CPU, the WebAssembly SIMD kernels where they run, else the TypeScript
 * reference (ADR 0040; VQ_CPU_KERNELS forces either).
 */
export const motionFeature: GpuFeatureEntry<typeof motionDefinition.options.defs> = {
  definition: motionDefinition,
  cpu: (options) => {
    const module = motionKernelsModule();
    return module ? new MotionWasm(options, module) : new MotionCpu(options);
  },
  gpu: (options) => new MotionGpu(options),
};

export { floatMotionDefinition, floatMotionOptions, floatMotionFeatureNames, FLOAT_MOTION_FEATURES } from "./float-definition.ts";
export type { FloatMotionOptions, FloatMotionFeatureNames } from "./float-definition.ts";
export { FloatMotionCpu, createFloatMotionCpu } from "./float-motion-cpu.ts";
export { FloatMotionWasm, createFloatMotionWasm, floatMotionKernelsModule } from "./float-motion-wasm.ts";

/**
 * libvmaf's float_motion (the float twin of motion: motion, motion2, motion3): on the
 * WebAssembly SIMD kernels where they run, else the TypeScript reference (ADR 0040;
 * VQ_CPU_KERNELS forces either).
 */
export const floatMotionFeature: FeatureEntry<typeof floatMotionDefinition.options.defs> = {
  definition: floatMotionDefinition,
  cpu: (options) => {
    const module = floatMotionKernelsModule();
    return module ? new FloatMotionWasm(options, module) : new FloatMotionCpu(options);
  },
};
