export { ciedeDefinition, ciedeOptions, CIEDE_FEATURE } from "./definition.ts";
export type { CiedeOptions } from "./definition.ts";
export { CiedeCpu, createCiedeCpu } from "./cpu/ciede-cpu.ts";
export { CiedeGpu, createCiedeGpu } from "./gpu/ciede-gpu.ts";
import type { GpuFeatureEntry } from "@vq/gpu-core";
import { ciedeDefinition } from "./definition.ts";
import { CiedeCpu } from "./cpu/ciede-cpu.ts";
import { CiedeGpu } from "./gpu/ciede-gpu.ts";

/** What the CLI and the scoring pipeline need to run ciede on either backend. */
export const ciedeFeature: GpuFeatureEntry<typeof ciedeDefinition.options.defs> = {
  definition: ciedeDefinition,
  cpu: (options) => new CiedeCpu(options),
  gpu: (options) => new CiedeGpu(options),
};
