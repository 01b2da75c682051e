// The host side's ceiling for the GPU path: how fast frames can be read from Y4M files,
// and read plus uploaded through the frame runner (mapped staging ring, one submit and
// one readback per frame) with no kernel at all: every plane, luma only (VMAF), or the
// distorted luma only (cambi). vq's GPU fps cannot pass these.
//   bun tools/host-ceiling.ts REF.y4m DIST.y4m
import { Y4mReader, scoreVideos, type ExtractionBackend } from "../packages/core/src/index.ts";
import { GpuBackend, LUMA_INPUTS, sharedGpu, type FrameInputs, type GpuStage } from "../packages/gpu-core/src/index.ts";

const [refPath, distPath] = process.argv.slice(2);
if (!refPath || !distPath) throw new Error("usage: bun tools/host-ceiling.ts REF.y4m DIST.y4m");

/** A stage with no kernel: the planes it names still go up, and one word comes back. */
const emptyStage = (inputs?: FrameInputs): GpuStage => ({ label: "none", resultWords: 1, inputs, init() {}, encode() {}, collect() {} });
const readOnly: ExtractionBackend = { name: "none", async init() {}, async extract() {}, async flush() {}, async close() {} };

async function fps(backend: ExtractionBackend): Promise<number> {
  const t0 = performance.now();
  const result = await scoreVideos(await Y4mReader.open(refPath!), await Y4mReader.open(distPath!), backend);
  return (result.frames * 1000) / (performance.now() - t0);
}

const gpu = await sharedGpu();
const rows = [];
for (let i = 0; i < 3; i++) {
  rows.push({
    "read both Y4M files (fps)": (await fps(readOnly)).toFixed(0),
    "+ upload every plane, readback (fps)": (await fps(new GpuBackend(gpu, [emptyStage()]))).toFixed(0),
    "+ upload luma of both, readback (fps)": (await fps(new GpuBackend(gpu, [emptyStage(LUMA_INPUTS)]))).toFixed(0),
    "+ upload distorted luma, readback (fps)": (await fps(new GpuBackend(gpu, [emptyStage({ reference: "none", distorted: "luma" })]))).toFixed(0),
  });
}
console.log(`${refPath} vs ${distPath} on ${gpu.description}`);
console.table(rows);
