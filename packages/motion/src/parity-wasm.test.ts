import { parityTests } from "@vq/parity";
import { motionDefinition } from "./definition.ts";
import { MotionWasm } from "./motion-wasm.ts";
import { MOTION_KERNELS_WASM } from "./wasm/motion-kernels.wasm.ts";

/**
 * integer motion on the WebAssembly SIMD kernels (ADR 0040), bit for bit (out_full) on every
 * golden pair, in every run that has its keys, like parity.test.ts's TypeScript reference.
 * The module is compiled here whatever VQ_CPU_KERNELS says: these tests are about it.
 */
const module = new WebAssembly.Module(Uint8Array.from(atob(MOTION_KERNELS_WASM), (c) => c.charCodeAt(0)));

await parityTests({
  title: "motion (WebAssembly SIMD)",
  features: [
    {
      feature: { definition: motionDefinition, cpu: (o) => new MotionWasm(o, module) },
      keys: /^(integer_motion|VMAF_integer_feature_motion)/,
      runs: "with-keys",
      modelFeature: /^VMAF_integer_feature_motion/,
      tolerance: ["identical"],
      backends: ["cpu"],
    },
  ],
});
