// ciede's catalogue entry (adr/0022-extractor-catalogue.md): facts only; the code is loaded
// on use through `load`.
import { defineOptions, type CatalogueEntry } from "@vq/core";

/** libvmaf's ciede has no options. */
export const ciedeOptions = defineOptions("ciede", {});

export const CIEDE_FEATURE = "ciede2000";

export const ciedeEntry: CatalogueEntry<typeof ciedeOptions.defs> = {
  name: "ciede",
  options: ciedeOptions,
  provides: [CIEDE_FEATURE],
  temporal: false,
  load: { cpu: () => import("./index.ts").then((m) => m.ciedeFeature), gpu: () => import("./index.ts").then((m) => m.ciedeFeature) },
};
