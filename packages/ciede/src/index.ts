export { ciedeDefinition, ciedeOptions, CIEDE_FEATURE } from "./definition.ts";
export type { CiedeOptions } from "./definition.ts";
export { CiedeCpu, createCiedeCpu } from "./ciede-cpu.ts";
export { ciedeScore } from "./ciede-score.ts";
export { deltaE2000 } from "./delta-e-2000.ts";
export { LabConverter } from "./lab-color.ts";
export { LabCache } from "./lab-cache.ts";
export { ChromaUpsampling } from "./chroma-upsampling.ts";
export { CiedeGpu, createCiedeGpu, CIEDE_KERNEL } from "./ciede-gpu.ts";
import type { GpuFeatureEntry } from "@vq/gpu-core";
import { ciedeDefinition } from "./definition.ts";
import { CiedeCpu } from "./ciede-cpu.ts";
import { CiedeGpu } from "./ciede-gpu.ts";

/** What the CLI and the scoring pipeline need to run ciede on either backend. */
export const ciedeFeature: GpuFeatureEntry<typeof ciedeDefinition.options.defs> = {
  definition: ciedeDefinition,
  cpu: (options) => new CiedeCpu(options),
  gpu: (options) => new CiedeGpu(options),
};
