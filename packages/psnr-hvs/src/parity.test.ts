import { parityTests } from "@vq/parity";
import { psnrHvsDefinition } from "./definition.ts";
import { PsnrHvsCpu } from "./psnr-hvs-cpu.ts";
import { PsnrHvsGpu } from "./psnr-hvs-gpu.ts";

/**
 * psnr_hvs against libvmaf 3.2 on every golden pair (run `all`, the only run with it):
 * psnr_hvs_y/cb/cr and psnr_hvs, per frame and pooled. libvmaf writes an infinite score
 * (identical planes) as null; here it must be +Infinity. The contract for this float
 * feature is 5e-5 of the printed output; vq repeats libvmaf's float steps, so out_full is
 * matched too, up to 1e-12 relative where a JavaScript engine's log10 rounds unlike
 * glibc's. The GPU twin reproduces the same float sums bit for bit: the same bounds.
 */
await parityTests({
  title: "psnr_hvs",
  features: [
    {
      feature: { definition: psnrHvsDefinition, cpu: (o) => new PsnrHvsCpu(o), gpu: (o) => new PsnrHvsGpu(o) },
      keys: /^psnr_hvs(_y|_cb|_cr)?$/,
      runs: ["all"],
      tolerance: ["float", "libm"],
      backends: ["cpu", "gpu"],
    },
  ],
});
