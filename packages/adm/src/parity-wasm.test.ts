import { parityTests } from "@vq/parity";
import { AdmWasm } from "./cpu/adm-wasm.ts";
import { SIMD_PROFILES } from "./cpu/adm-pipeline.ts";
import { ADM_KERNELS_WASM } from "./cpu/wasm/adm-kernels.wasm.ts";
import { admDefinition } from "./definition.ts";

/**
 * integer adm on the WebAssembly SIMD kernels (ADR 0040), bit for bit (out_full) on every
 * golden pair, in every run that has its keys (debug, all and the model runs with their
 * feature_opts_dicts), like parity.test.ts's TypeScript reference, as libvmaf's AVX-512
 * build computes them. The module is compiled here whatever VQ_CPU_KERNELS says: these
 * tests are about it.
 */
const module = new WebAssembly.Module(Uint8Array.from(atob(ADM_KERNELS_WASM), (c) => c.charCodeAt(0)));

await parityTests({
  title: "adm (WebAssembly SIMD)",
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
  ],
});
