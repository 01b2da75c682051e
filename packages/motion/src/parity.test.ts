import { parityTests } from "@vq/parity";
import { motionDefinition } from "./definition.ts";
import { floatMotionDefinition } from "./float-definition.ts";
import { FloatMotionCpu } from "./float-motion-cpu.ts";
import { MotionCpu } from "./motion-cpu.ts";
import { MotionGpu } from "./motion-gpu.ts";

/**
 * motion (CPU and GPU) and float_motion (CPU) bit for bit (out_full) on every golden pair,
 * in every run whose output has their keys: `all`, `debug` and every model run, each option
 * set a run registers (its `--feature` arguments, its models' feature_opts_dicts) scored once.
 */
await parityTests({
  title: "motion, float_motion",
  features: [
    {
      feature: { definition: motionDefinition, cpu: (o) => new MotionCpu(o), gpu: (o) => new MotionGpu(o) },
      keys: /^(integer_motion|VMAF_integer_feature_motion)/,
      runs: "with-keys",
      modelFeature: /^VMAF_integer_feature_motion/,
      tolerance: ["identical"],
      backends: ["cpu", "gpu"],
    },
    {
      feature: { definition: floatMotionDefinition, cpu: (o) => new FloatMotionCpu(o) },
      keys: /^motion[23]?($|_)/,
      runs: "with-keys",
      tolerance: ["identical"],
      backends: ["cpu"],
    },
  ],
  timeoutMs: { gpu: 300_000 },
});
