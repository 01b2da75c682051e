import type { GpuFeatureEntry } from "@vq/gpu-core";
import { CambiCpu } from "./cpu/cambi-cpu.ts";
import { CambiGpu } from "./gpu/cambi-gpu.ts";
import { cambiDefinition } from "./definition.ts";

export { cambiDefinition, cambiOptions, cambiScoreName, CAMBI_SOURCE, CAMBI_FULL_REFERENCE } from "./definition.ts";
export type { CambiOptions } from "./definition.ts";
export { CambiCpu, createCambiCpu } from "./cpu/cambi-cpu.ts";
export { CambiGpu, createCambiGpu } from "./gpu/cambi-gpu.ts";

/** What the CLI and the scoring pipeline need to run cambi on either backend. */
export const cambiFeature: GpuFeatureEntry<typeof cambiDefinition.options.defs> = {
  definition: cambiDefinition,
  cpu: (options) => new CambiCpu(options),
  gpu: (options) => new CambiGpu(options),
};
