import { parityTests } from "@vq/parity";
import { CambiCpu } from "./cpu/cambi-cpu.ts";
import { CambiGpu } from "./gpu/cambi-gpu.ts";
import { cambiDefinition } from "./definition.ts";

/**
 * cambi against libvmaf 3.2 on every golden pair, CPU and GPU, in every run that has cambi
 * keys: `all` (cambi), `cambi_fullref` (cambi, cambi_source, cambi_full_reference),
 * `cambi_topk0.2_tvi0.012` and the four VMAF v1 runs (the models' cambi options). Each
 * per-frame and pooled value must be the identical double to out_full (and so within
 * 5e-5 of the printed output).
 */
await parityTests({
  title: "cambi",
  features: [
    {
      feature: { definition: cambiDefinition, cpu: (o) => new CambiCpu(o), gpu: (o) => new CambiGpu(o) },
      keys: /^cambi($|_)/,
      runs: "with-keys",
      modelFeature: /^Cambi_feature_cambi_score$/,
      tolerance: ["identical", "float"],
      backends: ["cpu", "gpu"],
    },
  ],
});
