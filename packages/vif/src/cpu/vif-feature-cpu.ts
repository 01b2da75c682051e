import type { FeatureEntry } from "@vq/core";
import { vifDefinition } from "../definition.ts";
import { VifCpu } from "./vif-cpu.ts";

/** Integer vif on the CPU: what a CPU run loads (catalogue.ts's `load.cpu`), without the GPU twin's code. */
export const vifCpuFeature: FeatureEntry<typeof vifDefinition.options.defs> = {
  definition: vifDefinition,
  cpu: (options) => new VifCpu(options),
};
