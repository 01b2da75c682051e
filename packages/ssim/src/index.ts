import type { GpuFeatureEntry } from "@vq/gpu-core";
import { floatMsSsimDefinition } from "./float-ms-ssim-definition.ts";
import { FloatMsSsimCpu } from "./cpu/float-ms-ssim-cpu.ts";
import { FloatMsSsimGpu } from "./gpu/float-ms-ssim-gpu.ts";
import { floatSsimDefinition } from "./float-ssim-definition.ts";
import { FloatSsimCpu } from "./cpu/float-ssim-cpu.ts";
import { FloatSsimGpu } from "./gpu/float-ssim-gpu.ts";

export { floatSsimDefinition, floatSsimOptions, FLOAT_SSIM_NAMES, ssimScale, ssimPictureSize } from "./float-ssim-definition.ts";
export type { FloatSsimOptions } from "./float-ssim-definition.ts";
export { floatMsSsimDefinition, floatMsSsimOptions, FLOAT_MS_SSIM_NAMES, MS_SSIM_SCALES, MS_SSIM_MIN_SIZE } from "./float-ms-ssim-definition.ts";
export type { FloatMsSsimOptions } from "./float-ms-ssim-definition.ts";
export { FloatSsimCpu, createFloatSsimCpu } from "./cpu/float-ssim-cpu.ts";
export { FloatMsSsimCpu, createFloatMsSsimCpu } from "./cpu/float-ms-ssim-cpu.ts";
export { FloatSsimGpu, createFloatSsimGpu } from "./gpu/float-ssim-gpu.ts";
export { FloatMsSsimGpu, createFloatMsSsimGpu } from "./gpu/float-ms-ssim-gpu.ts";

/** libvmaf's `float_ssim` on either backend, for the CLI and the scoring pipeline. */
export const ssimFeature: GpuFeatureEntry<typeof floatSsimDefinition.options.defs> = {
  definition: floatSsimDefinition,
  cpu: (options) => new FloatSsimCpu(options),
  gpu: (options) => new FloatSsimGpu(options),
};

/** libvmaf's `float_ms_ssim` on either backend, for the CLI and the scoring pipeline. */
export const msSsimFeature: GpuFeatureEntry<typeof floatMsSsimDefinition.options.defs> = {
  definition: floatMsSsimDefinition,
  cpu: (options) => new FloatMsSsimCpu(options),
  gpu: (options) => new FloatMsSsimGpu(options),
};
