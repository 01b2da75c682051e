import type { FeatureEntry } from "@vq/core";
import { CambiCpu } from "./cambi-cpu.ts";
import { cambiDefinition } from "./definition.ts";

export { cambiDefinition, cambiOptions, cambiScoreName, CAMBI_SOURCE, CAMBI_FULL_REFERENCE } from "./definition.ts";
export type { CambiOptions } from "./definition.ts";
export { CambiCpu, createCambiCpu } from "./cambi-cpu.ts";
export { planCambi, CAMBI_MIN_WIDTH_HEIGHT } from "./cambi-plan.ts";
export type { CambiPlan, CambiGeometry } from "./cambi-plan.ts";

/** What the CLI and the scoring pipeline need to run cambi. */
export const cambiFeature: FeatureEntry<typeof cambiDefinition.options.defs> = {
  definition: cambiDefinition,
  cpu: (options) => new CambiCpu(options),
};
