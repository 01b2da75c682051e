import { Bench } from "tinybench";
import type { PicturePair } from "@vq/core";
import { cpuFrameTask, firstFramePair } from "../../../tools/bench-tasks.ts";
import { kernelsModule } from "@vq/core";
import { createFloatVifCpu, createFloatVifWasm, createVifCpu, floatVifKernelsModule, vifOptions } from "../src/index.ts";
import { VifWasm } from "../src/cpu/vif-wasm.ts";
import { VIF_KERNELS_WASM } from "../src/cpu/wasm/vif-kernels.wasm.ts";

const module = kernelsModule("vif", VIF_KERNELS_WASM);
const floatModule = floatVifKernelsModule();
if (!module || !floatModule) throw new Error("no WebAssembly SIMD here (or VQ_CPU_KERNELS=ts)");

const extractors = {
  vif: () => createVifCpu(),
  "vif-wasm": () => new VifWasm(vifOptions.resolve({}), module),
  float_vif: () => createFloatVifCpu(),
  "float_vif-wasm": () => createFloatVifWasm(floatModule),
};

function extractTask(frame: PicturePair, extractor: keyof typeof extractors): () => void {
  const instance = extractors[extractor]();
  return cpuFrameTask(instance, () => frame);
}

const hd = await firstFramePair("nat_1920x1080.x264crf35");
const deep = await firstFramePair("grad_960x540_10b.q8bit");

const bench = new Bench({ name: "@vq/vif (CPU)", time: 5000, warmupTime: 1500 });
bench
  .add("VifCpu 1920x1080 8-bit, one frame pair", extractTask(hd, "vif"))
  .add("VifWasm (WebAssembly SIMD) 1920x1080 8-bit, one frame pair", extractTask(hd, "vif-wasm"))
  .add("VifCpu 960x540 10-bit, one frame pair", extractTask(deep, "vif"))
  .add("VifWasm (WebAssembly SIMD) 960x540 10-bit, one frame pair", extractTask(deep, "vif-wasm"))
  .add("FloatVifCpu 1920x1080 8-bit, one frame pair", extractTask(hd, "float_vif"))
  .add("FloatVifWasm (WebAssembly SIMD) 1920x1080 8-bit, one frame pair", extractTask(hd, "float_vif-wasm"));
await bench.run();
console.log(bench.name);
console.table(bench.table());
for (const task of bench.tasks) {
  const result = task.result;
  const ms = result && "latency" in result ? result.latency.mean : undefined;
  if (ms) console.log(`${task.name}: ${(1000 / ms).toFixed(2)} frames/s (${ms.toFixed(1)} ms/frame)`);
}
