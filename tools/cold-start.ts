// Where a GPU run's cold start goes, each step timed from process start
// (performance.now()): module loading, the WebGPU device, opening the inputs and the model,
// the stages' init (pipelines, buffers) and the first frame through the GPU.
//   bun tools/cold-start.ts REF.y4m DIST.y4m [MODEL]     (MODEL: vmaf_v0.6.1 by default)
export {};
const t = [["process start to script", performance.now()]] as [string, number][];
const mark = (what: string) => t.push([what, performance.now()]);
const core = await import("../packages/core/src/index.ts");
const gpuCore = await import("../packages/gpu-core/src/index.ts");
const { chooseBackend } = await import("../packages/score/src/backend.ts");
const { resolveFeatures } = await import("../packages/score/src/features.ts");
const { loadModels, modelFeatureRequests } = await import("../packages/score/src/models.ts");
const { scoreModelsAtFrame } = await import("../packages/model/src/index.ts");
mark("modules loaded");
const gpu = await gpuCore.sharedGpu();
mark("GPU device");
const [refPath, distPath, model = "version=vmaf_v0.6.1"] = process.argv.slice(2);
if (!refPath || !distPath) throw new Error("usage: bun tools/cold-start.ts REF.y4m DIST.y4m [MODEL]");
const models = await loadModels([model]);
const features = await resolveFeatures(modelFeatureRequests(models));
const [ref, dist] = [await core.Y4mReader.open(refPath), await core.Y4mReader.open(distPath)];
const { backend } = await chooseBackend("gpu", features);
mark("inputs, model, backend chosen");
const timed: typeof backend = {
  name: backend.name,
  init: async (f) => {
    await backend.init(f);
    mark(`stages' init (${gpuCore.pipelineCacheSize(gpu.device)} pipelines, ${gpuCore.pipelineBuildMs(gpu.device).toFixed(1)} ms of them on this thread)`);
  },
  extract: (p, i, c) => backend.extract(p, i, c),
  extractFromFiles: (r, d, i, c) => backend.extractFromFiles!(r, d, i, c),
  flush: async (c) => {
    await backend.flush(c);
    mark("first frame through the GPU");
  },
  close: () => backend.close(),
};
const result = await core.scoreVideos(ref, dist, timed, { frameCount: 1 });
scoreModelsAtFrame(models, result.collector, 0);
mark("scored");
let prev = 0;
for (const [what, at] of t) {
  console.log(`${what.padEnd(52)} ${at.toFixed(1).padStart(8)} ms  (+${(at - prev).toFixed(1)})`);
  prev = at;
}
