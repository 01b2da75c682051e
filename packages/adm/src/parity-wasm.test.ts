import { parityTests } from "@vq/parity";
import { AdmWasm } from "./cpu/adm-wasm.ts";
import { SIMD_PROFILES } from "./cpu/adm-pipeline.ts";
import { ADM_KERNELS_WASM } from "./cpu/wasm/adm-kernels.wasm.ts";
import { admDefinition } from "./definition.ts";
import { floatAdmDefinition } from "./float-adm-definition.ts";
import { FloatAdmWasm } from "./float/float-adm-wasm.ts";
import { FLOAT_ADM_KERNELS_WASM } from "./float/wasm/float-adm-kernels.wasm.ts";

/**
 * integer adm on the WebAssembly SIMD kernels (ADR 0040), bit for bit (out_full) on every
 * golden pair, in every run that has its keys (debug, all and the model runs with their
 * feature_opts_dicts), like parity.test.ts's TypeScript reference, as libvmaf's AVX-512
 * build computes them; and float_adm on its kernels within 5e-5 of the printed output,
 * the debug and all runs, like parity.test.ts's FloatAdmCpu. The modules are compiled here
 * whatever VQ_CPU_KERNELS says: these tests are about them.
 */
const compiled = (base64: string) => new WebAssembly.Module(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));
const module = compiled(ADM_KERNELS_WASM);
const floatModule = compiled(FLOAT_ADM_KERNELS_WASM);

await parityTests({
  title: "adm, float_adm (WebAssembly SIMD)",
  features: [
    {
      feature: { definition: admDefinition, cpu: (o) => new AdmWasm(o, module, SIMD_PROFILES.avx512) },
      keys: /^integer_(adm|aim)/,
      runs: "with-keys",
      modelFeature: /^VMAF_integer_feature_adm/,
      scoreWith: { debug: "true" },
      tolerance: ["identical"],
      backends: ["cpu"],
    },
    {
      feature: { definition: floatAdmDefinition, cpu: (o) => new FloatAdmWasm(o, floatModule) },
      keys: /^(adm|aim)/,
      runs: ["debug", "all"],
      scoreWith: { debug: "true" },
      tolerance: ["float"],
      backends: ["cpu"],
    },
  ],
});
