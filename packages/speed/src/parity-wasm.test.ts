import { parityTests } from "@vq/parity";
import { speedChromaDefinition, speedTemporalDefinition } from "./definition.ts";
import { SpeedChromaWasm } from "./cpu/speed-chroma-wasm.ts";
import { SpeedTemporalWasm } from "./cpu/speed-temporal-wasm.ts";
import { SPEED_KERNELS_WASM } from "./cpu/wasm/speed-kernels.wasm.ts";

/**
 * speed_chroma and speed_temporal on the WebAssembly SIMD kernels (ADR 0040) against
 * libvmaf 3.2 on every golden pair, with parity.test.ts's CPU contract (5e-5 against the
 * printed and the full-precision output). The module is compiled here whatever
 * VQ_CPU_KERNELS says: these tests are about it.
 */
const module = new WebAssembly.Module(Uint8Array.from(atob(SPEED_KERNELS_WASM), (c) => c.charCodeAt(0)));

await parityTests({
  title: "speed_chroma, speed_temporal (WebAssembly SIMD)",
  features: [
    {
      feature: { definition: speedChromaDefinition, cpu: (o) => new SpeedChromaWasm(o, module) },
      keys: /^speed_chroma_/,
      runs: ["all", "vmaf_v1_3d0h", "vmaf_v1_5d0h", "vmaf_v1_1d5h_2160", "vmaf_v1_hfr_3d0h"],
      modelFeature: /^Speed_chroma_feature_speed_chroma_uv_score$/,
      tolerance: ["float", "floatFull"],
      backends: ["cpu"],
    },
    {
      feature: { definition: speedTemporalDefinition, cpu: (o) => new SpeedTemporalWasm(o, module) },
      keys: /^speed_temporal/,
      runs: ["all"],
      tolerance: ["float", "floatFull"],
      backends: ["cpu"],
    },
  ],
  timeoutMs: { cpu: 180_000 },
});
