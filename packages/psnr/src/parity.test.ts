import { parityTests } from "@vq/parity";
import { psnrDefinition } from "./definition.ts";
import { floatAnsnrDefinition, floatMomentDefinition, floatPsnrDefinition } from "./float-definitions.ts";
import { FloatAnsnrCpu } from "./float-ansnr-cpu.ts";
import { FloatMomentCpu } from "./float-moment-cpu.ts";
import { FloatPsnrCpu } from "./float-psnr-cpu.ts";
import { PsnrCpu } from "./psnr-cpu.ts";
import { PsnrGpu } from "./psnr-gpu.ts";

/**
 * psnr (runs `all`: psnr, and `debug`: psnr=enable_mse=true) on the CPU and the GPU, and
 * float_psnr, float_ansnr and float_moment (run `all`) on the CPU, against libvmaf 3.2 on
 * every golden pair. mse and the moments involve no libm call: identical doubles; the dB
 * scores may differ where JavaScript's log10 rounds unlike glibc's (1e-12 relative; under
 * Bun they have matched exactly). Everything within 5e-5 of the printed output too.
 */
await parityTests({
  title: "psnr, float_psnr, float_ansnr, float_moment",
  features: [
    {
      feature: { definition: psnrDefinition, cpu: (o) => new PsnrCpu(o), gpu: (o) => new PsnrGpu(o) },
      keys: /^(psnr|mse)_(y|cb|cr)$/,
      runs: ["all", "debug"],
      tolerance: ["float", { keys: /^psnr_/, class: "libm" }, { keys: /^mse_/, class: "identical" }],
      backends: ["cpu", "gpu"],
    },
    {
      feature: { definition: floatPsnrDefinition, cpu: (o) => new FloatPsnrCpu(o) },
      keys: /^float_psnr$/,
      runs: ["all"],
      tolerance: ["float", "libm"],
      backends: ["cpu"],
    },
    {
      feature: { definition: floatAnsnrDefinition, cpu: (o) => new FloatAnsnrCpu(o) },
      keys: /^float_an(s|ps)nr$/,
      runs: ["all"],
      tolerance: ["float", "libm"],
      backends: ["cpu"],
    },
    {
      feature: { definition: floatMomentDefinition, cpu: (o) => new FloatMomentCpu(o) },
      keys: /^float_moment_/,
      runs: ["all"],
      tolerance: ["float", "identical"],
      backends: ["cpu"],
    },
  ],
});
