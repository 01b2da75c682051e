// What Dawn alone costs a GPU run's cold start: a process that only imports Dawn's `webgpu`,
// creates the device as vq does and builds the run's kernels with vq's pipeline cache (its
// two compile threads plus the JavaScript thread), timed from process start. Nothing of vq
// loads in it, no frame is read or computed: a cold start cannot be shorter than this on
// the machine (adr/0021-cli-bundle.md).
//   bun tools/dawn-floor.ts REF.y4m DIST.y4m [MODEL] [--runs N]   (MODEL: vmaf_v0.6.1)
// The kernels are the ones vq's stages ask for on these inputs: a first process runs the
// stages' init and records every shader module and pipeline the device is asked for.
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

interface Kernels {
  toggles: string[];
  features: string[];
  limits: Record<string, number>;
  specs: { label: string; code: string; entryPoint?: string; constants?: Record<string, number> }[];
}

if (process.argv[2] === "--kernels") await buildOnly(process.argv[3]!);
else await record();

/** The measured process: Dawn's device and the recorded kernels, nothing else. */
async function buildOnly(file: string): Promise<void> {
  const k = JSON.parse(readFileSync(file, "utf8")) as Kernels;
  const marks: [string, number][] = [["script", performance.now()]];
  const specifier = "webgpu";
  const dawn = (await import(specifier)) as { create: (o: string[]) => GPU; globals: object };
  Object.assign(globalThis, dawn.globals);
  const { computePipelines, compileQueuedPipelines } = await import("../packages/gpu-core/src/pipeline-cache.ts");
  marks.push(["webgpu imported", performance.now()]);
  const gpu = dawn.create(k.toggles);
  (globalThis as { keepDawn?: unknown }).keepDawn = gpu; // see device.ts: it must outlive completions
  const adapter = (await gpu.requestAdapter({ powerPreference: "high-performance" }))!;
  marks.push(["adapter", performance.now()]);
  const device = await adapter.requestDevice({ requiredFeatures: k.features as GPUFeatureName[], requiredLimits: k.limits });
  marks.push(["device", performance.now()]);
  const built = computePipelines(device, k.specs);
  marks.push(["modules parsed", performance.now()]);
  await compileQueuedPipelines(device);
  await built;
  marks.push([`${k.specs.length} pipelines built`, performance.now()]);
  console.log(JSON.stringify(marks));
  process.exit(0);
}

/** Records the run's kernels in this process, then times `--runs` fresh processes that build only them. */
async function record(): Promise<void> {
  const args = process.argv.slice(2);
  const runsAt = args.indexOf("--runs");
  const runs = runsAt >= 0 ? Number(args.splice(runsAt, 2)[1]) : 5;
  const [refPath, distPath, model = "version=vmaf_v0.6.1"] = args;
  if (!refPath || !distPath) throw new Error("usage: bun tools/dawn-floor.ts REF.y4m DIST.y4m [MODEL] [--runs N]");
  const core = await import("../packages/core/src/index.ts");
  const { sharedGpu, DAWN_TOGGLES, RAISED_LIMITS } = await import("../packages/gpu-core/src/device.ts");
  const { chooseBackend } = await import("../packages/score/src/backend.ts");
  const { resolveFeatures } = await import("../packages/score/src/features.ts");
  const { loadModels, modelFeatureRequests } = await import("../packages/score/src/models.ts");
  const gpu = await sharedGpu();
  const device = gpu.device;
  const codeOf = new WeakMap<GPUShaderModule, string>();
  const specs: Kernels["specs"] = [];
  const createShaderModule = device.createShaderModule.bind(device);
  device.createShaderModule = (d) => {
    const m = createShaderModule(d);
    codeOf.set(m, d.code);
    return m;
  };
  const recordPipeline = (d: GPUComputePipelineDescriptor) =>
    specs.push({ label: d.label ?? "", code: codeOf.get(d.compute.module)!, entryPoint: d.compute.entryPoint, constants: d.compute.constants as Record<string, number> | undefined });
  for (const name of ["createComputePipeline", "createComputePipelineAsync"] as const) {
    const original = (device[name] as (d: GPUComputePipelineDescriptor) => unknown).bind(device);
    (device as unknown as Record<string, unknown>)[name] = (d: GPUComputePipelineDescriptor) => (recordPipeline(d), original(d));
  }
  const features = await resolveFeatures(modelFeatureRequests(await loadModels([model])));
  const ref = await core.Y4mReader.open(refPath);
  const { backend } = await chooseBackend("gpu", features);
  await backend.init(ref.format);
  await backend.close();
  await ref.close();
  const limits = Object.fromEntries(RAISED_LIMITS.map((name) => [name, (device.limits as unknown as Record<string, number>)[name]!]));
  const file = join(tmpdir(), `vq-dawn-floor-${process.pid}.json`);
  writeFileSync(file, JSON.stringify({ toggles: DAWN_TOGGLES, features: [...gpu.features], limits, specs } satisfies Kernels));
  console.log(`${specs.length} pipelines recorded (${model}, ${ref.format.width}x${ref.format.height}); ${runs} processes that build only them:`);
  const rows: [string, number][][] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const r = spawnSync(process.execPath, [import.meta.filename, "--kernels", file], { encoding: "utf8" });
      if (r.status !== 0) throw new Error(`the measured process failed: ${r.stderr}`);
      rows.push(JSON.parse(r.stdout.trim().split("\n").at(-1)!));
    }
  } finally {
    rmSync(file, { force: true });
  }
  for (const [j, [what]] of rows[0]!.entries()) {
    const at = rows.map((row) => row[j]![1]).sort((a, b) => a - b);
    console.log(`${what.padEnd(24)} ${at.map((t) => t.toFixed(0).padStart(5)).join(" ")}  ms from process start (median ${at[Math.floor(at.length / 2)]!.toFixed(0)})`);
  }
  process.exit(0);
}
