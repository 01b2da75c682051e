import type { FeatureEntry } from "@vq/core";
import { motionDefinition } from "./definition.ts";
import { MotionCpu } from "./motion-cpu.ts";

export { motionDefinition, motionOptions, motionFeatureNames, motionFrameDistance, MOTION_FEATURES } from "./definition.ts";
export type { MotionOptions, MotionFeatureNames } from "./definition.ts";
export { MotionCpu, createMotionCpu, sadScore } from "./motion-cpu.ts";
export { motionSad, createSadRow, MOTION_FILTER } from "./motion-sad.ts";
export { motionBlend, clipMotion } from "./motion-blend.ts";
export { writeMotion2And3 } from "./motion-temporal.ts";
export { LumaHistory } from "./luma-history.ts";

/** What the CLI and the scoring pipeline need to run libvmaf's integer motion. */
export const motionFeature: FeatureEntry<typeof motionDefinition.options.defs> = {
  definition: motionDefinition,
  cpu: (options) => new MotionCpu(options),
};
