// A CPU extraction worker for the two-thread benchmark: builds cambi from its spec.
import { serveExtractors } from "@vq/core";
import { CambiCpu } from "../src/cpu/cambi-cpu.ts";
import { cambiOptions } from "../src/definition.ts";

serveExtractors((spec) => new CambiCpu(cambiOptions.resolve(spec.options as Record<string, never>)));
