import { parityTests } from "@vq/parity";
import { floatMsSsimDefinition } from "./float-ms-ssim-definition.ts";
import { FloatMsSsimWasm } from "./cpu/float-ms-ssim-wasm.ts";
import { floatSsimDefinition } from "./float-ssim-definition.ts";
import { FloatSsimWasm } from "./cpu/float-ssim-wasm.ts";
import { SSIM_KERNELS_WASM } from "./cpu/wasm/ssim-kernels.wasm.ts";

/**
 * float_ssim and float_ms_ssim on the WebAssembly SIMD kernels (ADR 0040) against libvmaf
 * 3.2 on every golden pair, with parity.test.ts's CPU contract (within 5e-5 of the printed
 * output and 1e-12 relative of out_full). The module is compiled here whatever
 * VQ_CPU_KERNELS says: these tests are about it.
 */
const module = new WebAssembly.Module(Uint8Array.from(atob(SSIM_KERNELS_WASM), (c) => c.charCodeAt(0)));
const tolerance = ["float", "libm"] as const;

await parityTests({
  title: "float_ssim, float_ms_ssim (WebAssembly SIMD)",
  features: [
    {
      feature: { definition: floatSsimDefinition, cpu: (o) => new FloatSsimWasm(o, module) },
      keys: /^float_ssim(_|$)/,
      runs: ["all"],
      tolerance,
      backends: ["cpu"],
    },
    {
      feature: { definition: floatMsSsimDefinition, cpu: (o) => new FloatMsSsimWasm(o, module) },
      keys: /^float_ms_ssim(_|$)/,
      runs: ["all", "debug"],
      scoreWith: { enable_lcs: "true" },
      tolerance,
      backends: ["cpu"],
    },
  ],
});
