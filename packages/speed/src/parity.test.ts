import { parityTests } from "@vq/parity";
import { speedChromaDefinition, speedTemporalDefinition } from "./definition.ts";
import { SpeedChromaCpu } from "./cpu/speed-chroma-cpu.ts";
import { SpeedChromaGpu } from "./gpu/speed-chroma-gpu.ts";
import { SpeedTemporalCpu } from "./cpu/speed-temporal-cpu.ts";
import { SpeedTemporalGpu } from "./gpu/speed-temporal-gpu.ts";

/**
 * SpEED against libvmaf 3.2 on every golden pair, CPU and GPU: run `all` (speed_chroma and
 * speed_temporal with default options) and the four VMAF v1.0.16 runs (speed_chroma with
 * the options each model file gives it). The bar for a float extractor, 5e-5, held against
 * the printed and the full-precision output, on every frame and pooled value.
 */
await parityTests({
  title: "speed_chroma, speed_temporal",
  features: [
    {
      feature: { definition: speedChromaDefinition, cpu: (o) => new SpeedChromaCpu(o), gpu: (o) => new SpeedChromaGpu(o) },
      keys: /^speed_chroma_/,
      runs: ["all", "vmaf_v1_3d0h", "vmaf_v1_5d0h", "vmaf_v1_1d5h_2160", "vmaf_v1_hfr_3d0h"],
      modelFeature: /^Speed_chroma_feature_speed_chroma_uv_score$/,
      tolerance: ["float", "floatFull"],
      backends: ["cpu", "gpu"],
    },
    {
      feature: { definition: speedTemporalDefinition, cpu: (o) => new SpeedTemporalCpu(o), gpu: (o) => new SpeedTemporalGpu(o) },
      keys: /^speed_temporal/,
      runs: ["all"],
      tolerance: ["float", "floatFull"],
      backends: ["cpu", "gpu"],
    },
  ],
  // batches of 5: the golden videos (24, 8, 6 or 5 frames) end in a partial batch, or fill one
  gpuRunner: { batchFrames: 5 },
  timeoutMs: { cpu: 180_000 },
});
