import { parityTests } from "@vq/parity";
import { vifDefinition } from "./definition.ts";
import { floatVifDefinition } from "./float-vif-definition.ts";
import { FloatVifCpu } from "./cpu/float-vif-cpu.ts";
import { VifCpu } from "./cpu/vif-cpu.ts";
import { VifGpu } from "./gpu/vif-gpu.ts";

/**
 * integer vif, CPU and GPU, bit for bit (out_full) on every golden pair, in every run that
 * has its keys: `debug` (vif=debug=true: every integer_vif* key), `all` and the v0.6 model
 * runs (defaults: the four scale scores), `vmaf_v0.6.1neg` (its model's
 * vif_enhn_gain_limit=1: the egl_1 keys).
 *
 * float_vif, CPU: `debug` and `all` within 5e-5 of the printed output (the contract for
 * float features) and, since the float emulation achieves it, the same doubles as
 * out_full. debug is no feature parameter: one debug pass serves both runs.
 */
await parityTests({
  title: "vif, float_vif",
  features: [
    {
      feature: { definition: vifDefinition, cpu: (o) => new VifCpu(o), gpu: (o) => new VifGpu(o) },
      keys: /^integer_vif/,
      runs: "with-keys",
      modelFeature: /^VMAF_integer_feature_vif/,
      tolerance: ["identical"],
      backends: ["cpu", "gpu"],
    },
    {
      feature: { definition: floatVifDefinition, cpu: (o) => new FloatVifCpu(o) },
      keys: /^vif(_|$)/,
      runs: ["debug", "all"],
      scoreWith: { debug: "true" },
      tolerance: ["float", "identical"],
      backends: ["cpu"],
    },
  ],
});
