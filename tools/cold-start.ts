// Where a GPU run's cold start goes: module loading, the WebGPU device, the stages' init
// (pipelines), and the first frame, each timed from process start (performance.now()).
//   bun tools/cold-start.ts REF.y4m DIST.y4m [vq feature/model args as for score(): --model NAME]
const t = [["process start to script", performance.now()]] as [string, number][];
const mark = (what: string) => t.push([what, performance.now()]);
const { score } = await import("../packages/cli/src/index.ts");
mark("modules loaded");
const { pipelineBuildMs, pipelineCacheSize, sharedGpu } = await import("../packages/gpu-core/src/index.ts");
const gpu = await sharedGpu();
mark("GPU device");
const [reference, distorted] = process.argv.slice(2);
if (!reference || !distorted) throw new Error("usage: bun tools/cold-start.ts REF.y4m DIST.y4m");
const run = score({ reference, distorted, backend: "gpu", frameCount: 1 });
const first = await run.next();
mark("first frame scored (includes stage init)");
while (!(await run.next()).done);
mark("pooled");
let prev = 0;
for (const [what, at] of t) {
  console.log(`${what.padEnd(44)} ${at.toFixed(1).padStart(8)} ms  (+${(at - prev).toFixed(1)})`);
  prev = at;
}
console.log(`of which ${pipelineCacheSize(gpu.device)} pipelines built in ${pipelineBuildMs(gpu.device).toFixed(1)} ms`);
if (first.done) throw new Error("no frame scored");
