import { parityTests } from "@vq/parity";
import { AdmCpu } from "./cpu/adm-cpu.ts";
import { AdmGpu } from "./gpu/adm-gpu.ts";
import { SIMD_PROFILES } from "./cpu/adm-pipeline.ts";
import { admDefinition } from "./definition.ts";
import { FloatAdmCpu } from "./float/float-adm-cpu.ts";
import { floatAdmDefinition } from "./float-adm-definition.ts";

/**
 * integer adm, CPU and GPU: every integer_adm* / integer_aim* value of every frame and
 * pooled statistic the identical double to out_full, for every golden pair, in every run
 * that has them: debug, all and the model runs (adm with each model's feature_opts_dicts:
 * the VMAF v1 models', vmaf_v0.6.1neg's gain limit), as libvmaf's AVX-512 build (the
 * golden data's) computes them.
 *
 * float_adm, CPU: debug (18 keys) and all (7 keys) within 5e-5 of the printed output.
 * libvmaf divides with SSE's approximate reciprocal (CPU-dependent), so float_adm is held
 * to a tolerance, not to identical doubles.
 *
 * debug only adds outputs, so every run is scored with it and compared on its own keys.
 */
await parityTests({
  title: "adm, float_adm",
  features: [
    {
      feature: { definition: admDefinition, cpu: (o) => new AdmCpu(o, SIMD_PROFILES.avx512), gpu: (o) => new AdmGpu(o, SIMD_PROFILES.avx512) },
      keys: /^integer_(adm|aim)/,
      runs: "with-keys",
      modelFeature: /^VMAF_integer_feature_adm/,
      scoreWith: { debug: "true" },
      tolerance: ["identical"],
      backends: ["cpu", "gpu"],
    },
    {
      feature: { definition: floatAdmDefinition, cpu: (o) => new FloatAdmCpu(o) },
      keys: /^(adm|aim)/,
      runs: ["debug", "all"],
      scoreWith: { debug: "true" },
      tolerance: ["float"],
      backends: ["cpu"],
    },
  ],
});
