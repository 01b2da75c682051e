import type { FeatureEntry } from "@vq/core";
import type { GpuFeatureEntry } from "@vq/gpu-core";
import { psnrDefinition } from "./definition.ts";
import { PsnrCpu } from "./psnr-cpu.ts";
import { PsnrGpu } from "./psnr-gpu.ts";
import { floatAnsnrDefinition, floatMomentDefinition, floatPsnrDefinition } from "./float-definitions.ts";
import { FloatAnsnrCpu } from "./float-ansnr-cpu.ts";
import { FloatMomentCpu } from "./float-moment-cpu.ts";
import { FloatPsnrCpu } from "./float-psnr-cpu.ts";

export { psnrDefinition, psnrOptions, PSNR_NAMES, MSE_NAMES, APSNR_NAMES } from "./definition.ts";
export type { PsnrOptions } from "./definition.ts";
export { PsnrCpu, createPsnrCpu } from "./psnr-cpu.ts";
export { PsnrGpu, createPsnrGpu } from "./psnr-gpu.ts";

/** What the CLI and the scoring pipeline need to run psnr on either backend. */
export const psnrFeature: GpuFeatureEntry<typeof psnrDefinition.options.defs> = {
  definition: psnrDefinition,
  cpu: (options) => new PsnrCpu(options),
  gpu: (options) => new PsnrGpu(options),
};

export {
  floatPsnrDefinition,
  floatAnsnrDefinition,
  floatMomentDefinition,
  floatPsnrOptions,
  floatAnsnrOptions,
  floatMomentOptions,
  floatPeak,
  FLOAT_PSNR_NAME,
  FLOAT_ANSNR_NAMES,
  FLOAT_MOMENT_NAMES,
} from "./float-definitions.ts";
export type { FloatPsnrOptions, FloatAnsnrOptions, FloatMomentOptions } from "./float-definitions.ts";
export { FloatPsnrCpu, createFloatPsnrCpu } from "./float-psnr-cpu.ts";
export { FloatAnsnrCpu, createFloatAnsnrCpu } from "./float-ansnr-cpu.ts";
export { FloatMomentCpu, createFloatMomentCpu } from "./float-moment-cpu.ts";

/** libvmaf's float_psnr (CPU only). */
export const floatPsnrFeature: FeatureEntry<typeof floatPsnrDefinition.options.defs> = {
  definition: floatPsnrDefinition,
  cpu: (options) => new FloatPsnrCpu(options),
};

/** libvmaf's float_ansnr: float_ansnr and float_anpsnr (CPU only). */
export const floatAnsnrFeature: FeatureEntry<typeof floatAnsnrDefinition.options.defs> = {
  definition: floatAnsnrDefinition,
  cpu: (options) => new FloatAnsnrCpu(options),
};

/** libvmaf's float_moment: mean and mean square of both luma planes (CPU only). */
export const floatMomentFeature: FeatureEntry<typeof floatMomentDefinition.options.defs> = {
  definition: floatMomentDefinition,
  cpu: (options) => new FloatMomentCpu(options),
};
