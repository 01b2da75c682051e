import { parityTests } from "@vq/parity";
import { floatMsSsimDefinition } from "./float-ms-ssim-definition.ts";
import { FloatMsSsimCpu } from "./cpu/float-ms-ssim-cpu.ts";
import { FloatMsSsimGpu } from "./gpu/float-ms-ssim-gpu.ts";
import { floatSsimDefinition } from "./float-ssim-definition.ts";
import { FloatSsimCpu } from "./cpu/float-ssim-cpu.ts";
import { FloatSsimGpu } from "./gpu/float-ssim-gpu.ts";

/**
 * float_ssim and float_ms_ssim against libvmaf 3.2 on every golden pair. Run `all` has
 * both with default options, run `debug` float_ms_ssim with enable_lcs (adding
 * float_ms_ssim_{l,c,s}_scale0..4); enable_lcs is no feature parameter and changes no
 * other value, so one pass with it serves both runs.
 *
 * The contract: within 5e-5 of the printed output, on both backends. The CPU emulates
 * libvmaf's float arithmetic, so it is also held to out_full within 1e-12 relative (room
 * for a libm pow differing in the last bit). The GPU computes l and c per window in f32
 * where libvmaf uses double: within 1e-6 of out_full, well inside the contract.
 */
const tolerance = { cpu: ["float", "libm"], gpu: ["float", "gpuF32Windows"] } as const;

await parityTests({
  title: "float_ssim, float_ms_ssim",
  features: [
    {
      feature: { definition: floatSsimDefinition, cpu: (o) => new FloatSsimCpu(o), gpu: (o) => new FloatSsimGpu(o) },
      keys: /^float_ssim(_|$)/,
      runs: ["all"],
      tolerance,
      backends: ["cpu", "gpu"],
    },
    {
      feature: { definition: floatMsSsimDefinition, cpu: (o) => new FloatMsSsimCpu(o), gpu: (o) => new FloatMsSsimGpu(o) },
      keys: /^float_ms_ssim(_|$)/,
      runs: ["all", "debug"],
      scoreWith: { enable_lcs: "true" },
      tolerance,
      backends: ["cpu", "gpu"],
    },
  ],
});
