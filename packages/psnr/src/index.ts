export { psnrDefinition, psnrOptions, PSNR_NAMES, MSE_NAMES, APSNR_NAMES } from "./definition.ts";
export type { PsnrOptions } from "./definition.ts";
export { PsnrCpu, createPsnrCpu, planeSse } from "./psnr-cpu.ts";
export { PsnrGpu, createPsnrGpu, PSNR_SSE_KERNEL } from "./psnr-gpu.ts";
export { PsnrScorer } from "./psnr-score.ts";
import type { GpuFeatureEntry } from "@vq/gpu-core";
import { psnrDefinition } from "./definition.ts";
import { PsnrCpu } from "./psnr-cpu.ts";
import { PsnrGpu } from "./psnr-gpu.ts";

/** What the CLI and the scoring pipeline need to run psnr on either backend. */
export const psnrFeature: GpuFeatureEntry<typeof psnrDefinition.options.defs> = {
  definition: psnrDefinition,
  cpu: (options) => new PsnrCpu(options),
  gpu: (options) => new PsnrGpu(options),
};
