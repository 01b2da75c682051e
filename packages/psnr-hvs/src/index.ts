export { psnrHvsDefinition, psnrHvsOptions, PSNR_HVS_NAME, PSNR_HVS_PLANE_NAMES, libvmafPlaneSizes } from "./definition.ts";
export type { PsnrHvsOptions } from "./definition.ts";
export { PsnrHvsCpu, createPsnrHvsCpu } from "./psnr-hvs-cpu.ts";
export { planeError, BlockScratch } from "./plane-error.ts";
export { errorToDb, writePsnrHvs } from "./psnr-hvs-score.ts";
export { fdct8x8 } from "./od-dct.ts";
export { CSF_Y, CSF_CB, CSF_CR, maskingWeights } from "./csf.ts";
import type { FeatureEntry } from "@vq/core";
import { psnrHvsDefinition } from "./definition.ts";
import { PsnrHvsCpu } from "./psnr-hvs-cpu.ts";

/** What the CLI and the scoring pipeline need to run psnr_hvs. */
export const psnrHvsFeature: FeatureEntry<typeof psnrHvsDefinition.options.defs> = {
  definition: psnrHvsDefinition,
  cpu: (options) => new PsnrHvsCpu(options),
};
