import { parityTests } from "@vq/parity";
import { psnrHvsDefinition } from "./definition.ts";
import { PsnrHvsWasm } from "./psnr-hvs-wasm.ts";
import { PSNR_HVS_KERNELS_WASM } from "./wasm/psnr-hvs-kernels.wasm.ts";

/**
 * psnr_hvs on the WebAssembly SIMD kernels (ADR 0040) against libvmaf 3.2 on every golden
 * pair, with parity.test.ts's bounds for the TypeScript reference: 5e-5 of the printed
 * output, and out_full matched up to 1e-12 relative (a JavaScript engine's log10 against
 * glibc's); the kernels' float sums are the reference's. The module is compiled here
 * whatever VQ_CPU_KERNELS says: these tests are about it.
 */
const module = new WebAssembly.Module(Uint8Array.from(atob(PSNR_HVS_KERNELS_WASM), (c) => c.charCodeAt(0)));

await parityTests({
  title: "psnr_hvs (WebAssembly SIMD)",
  features: [
    {
      feature: { definition: psnrHvsDefinition, cpu: (o) => new PsnrHvsWasm(o, module) },
      keys: /^psnr_hvs(_y|_cb|_cr)?$/,
      runs: ["all"],
      tolerance: ["float", "libm"],
      backends: ["cpu"],
    },
  ],
});
