import { parityTests } from "@vq/parity";
import { CambiWasm } from "./cpu/cambi-wasm.ts";
import { CAMBI_KERNELS_WASM } from "./cpu/wasm/cambi-kernels.wasm.ts";
import { cambiDefinition } from "./definition.ts";

/**
 * cambi on the WebAssembly SIMD kernels (ADR 0040), the identical double to out_full on
 * every golden pair, in every run that has cambi keys (all, cambi_fullref, the topk/tvi
 * run and the VMAF v1 runs with their options), like parity.test.ts's TypeScript
 * reference. The module is compiled here whatever VQ_CPU_KERNELS says: these tests are about it.
 */
const module = new WebAssembly.Module(Uint8Array.from(atob(CAMBI_KERNELS_WASM), (c) => c.charCodeAt(0)));

await parityTests({
  title: "cambi (WebAssembly SIMD)",
  features: [
    {
      feature: { definition: cambiDefinition, cpu: (o) => new CambiWasm(o, module) },
      keys: /^cambi($|_)/,
      runs: "with-keys",
      modelFeature: /^Cambi_feature_cambi_score$/,
      tolerance: ["identical"],
      backends: ["cpu"],
    },
  ],
});
