import { parityTests } from "@vq/parity";
import { vifDefinition } from "./definition.ts";
import { VifWasm } from "./cpu/vif-wasm.ts";
import { VIF_KERNELS_WASM } from "./cpu/wasm/vif-kernels.wasm.ts";

/**
 * integer vif on the WebAssembly SIMD kernels (ADR 0040), bit for bit (out_full) on every
 * golden pair, in every run that has its keys, like parity.test.ts's TypeScript reference.
 * The module is compiled here whatever VQ_CPU_KERNELS says: these tests are about it.
 */
const module = new WebAssembly.Module(Uint8Array.from(atob(VIF_KERNELS_WASM), (c) => c.charCodeAt(0)));

await parityTests({
  title: "vif (WebAssembly SIMD)",
  features: [
    {
      feature: { definition: vifDefinition, cpu: (o) => new VifWasm(o, module) },
      keys: /^integer_vif/,
      runs: "with-keys",
      modelFeature: /^VMAF_integer_feature_vif/,
      tolerance: ["identical"],
      backends: ["cpu"],
    },
  ],
});
