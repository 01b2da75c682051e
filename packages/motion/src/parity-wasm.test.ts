import { parityTests } from "@vq/parity";
import { motionDefinition } from "./definition.ts";
import { floatMotionDefinition } from "./float-definition.ts";
import { FloatMotionWasm } from "./float-motion-wasm.ts";
import { MotionWasm } from "./motion-wasm.ts";
import { FLOAT_MOTION_KERNELS_WASM } from "./wasm/float-motion-kernels.wasm.ts";
import { MOTION_KERNELS_WASM } from "./wasm/motion-kernels.wasm.ts";

/**
 * integer motion and float_motion on the WebAssembly SIMD kernels (ADR 0040), bit for bit
 * (out_full) on every golden pair, in every run that has their keys, like parity.test.ts's
 * TypeScript reference. The modules are compiled here whatever VQ_CPU_KERNELS says: these
 * tests are about them.
 */
const compiled = (base64: string) => new WebAssembly.Module(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));
const module = compiled(MOTION_KERNELS_WASM);
const floatModule = compiled(FLOAT_MOTION_KERNELS_WASM);

await parityTests({
  title: "motion, float_motion (WebAssembly SIMD)",
  features: [
    {
      feature: { definition: motionDefinition, cpu: (o) => new MotionWasm(o, module) },
      keys: /^(integer_motion|VMAF_integer_feature_motion)/,
      runs: "with-keys",
      modelFeature: /^VMAF_integer_feature_motion/,
      tolerance: ["identical"],
      backends: ["cpu"],
    },
    {
      feature: { definition: floatMotionDefinition, cpu: (o) => new FloatMotionWasm(o, floatModule) },
      keys: /^motion[23]?($|_)/,
      runs: "with-keys",
      tolerance: ["identical"],
      backends: ["cpu"],
    },
  ],
});
