import { parityTests } from "@vq/parity";
import { vifDefinition } from "./definition.ts";
import { floatVifDefinition } from "./float-vif-definition.ts";
import { FloatVifWasm } from "./cpu/float-vif-wasm.ts";
import { VifWasm } from "./cpu/vif-wasm.ts";
import { FLOAT_VIF_KERNELS_WASM } from "./cpu/wasm/float-vif-kernels.wasm.ts";
import { VIF_KERNELS_WASM } from "./cpu/wasm/vif-kernels.wasm.ts";

/**
 * integer vif on the WebAssembly SIMD kernels (ADR 0040), bit for bit (out_full) on every
 * golden pair, in every run that has its keys, and float_vif on its kernels within 5e-5 of
 * the printed output and the same doubles as out_full, like parity.test.ts's TypeScript
 * reference. The modules are compiled here whatever VQ_CPU_KERNELS says: these tests are
 * about them.
 */
const compiled = (base64: string) => new WebAssembly.Module(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));
const module = compiled(VIF_KERNELS_WASM);
const floatModule = compiled(FLOAT_VIF_KERNELS_WASM);

await parityTests({
  title: "vif, float_vif (WebAssembly SIMD)",
  features: [
    {
      feature: { definition: vifDefinition, cpu: (o) => new VifWasm(o, module) },
      keys: /^integer_vif/,
      runs: "with-keys",
      modelFeature: /^VMAF_integer_feature_vif/,
      tolerance: ["identical"],
      backends: ["cpu"],
    },
    {
      feature: { definition: floatVifDefinition, cpu: (o) => new FloatVifWasm(o, floatModule) },
      keys: /^vif(_|$)/,
      runs: ["debug", "all"],
      scoreWith: { debug: "true" },
      tolerance: ["float", "identical"],
      backends: ["cpu"],
    },
  ],
});
