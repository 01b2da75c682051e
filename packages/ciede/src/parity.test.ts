import { parityTests } from "@vq/parity";
import { CiedeCpu } from "./cpu/ciede-cpu.ts";
import { CiedeGpu } from "./gpu/ciede-gpu.ts";
import { ciedeDefinition } from "./definition.ts";

/**
 * ciede2000 against libvmaf 3.2 on every golden pair (run `all`, the only run with ciede):
 * within 5e-5 of the printed output, per frame and pooled, on both backends. The CPU
 * follows libvmaf's float/double steps, so it is also held to out_full (Bun has matched
 * every value exactly; 1e-10 relative for engines whose pow() rounds unlike glibc's). The
 * GPU twin computes in f32 and f32 pairs (adr/0005): the 5e-5 contract; its distance to
 * out_full is in the summary line.
 */
await parityTests({
  title: "ciede",
  features: [
    {
      feature: { definition: ciedeDefinition, cpu: (o) => new CiedeCpu(o), gpu: (o) => new CiedeGpu(o) },
      keys: /^ciede2000$/,
      runs: ["all"],
      tolerance: { cpu: ["float", "ciedePow"], gpu: ["float"] },
      backends: ["cpu", "gpu"],
    },
  ],
});
