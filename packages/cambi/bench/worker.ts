// A CPU extraction worker for the two-thread benchmark: builds cambi from its spec.
import { serveExtractors } from "@vq/core";
import { cambiOptions } from "../src/definition.ts";
import { cambiFeature } from "../src/index.ts";

// the catalogue's choice of kernels, as a CLI worker makes it (ADR 0040)
serveExtractors((spec) => cambiFeature.cpu(cambiOptions.resolve(spec.options as Record<string, never>)));
