/**
 * Shader modules and compute pipelines, built once per (device, source, entry point,
 * constants). Kernels ask for theirs on every init; only the first builds.
 */
const caches = new WeakMap<GPUDevice, { modules: Map<string, GPUShaderModule>; pipelines: Map<string, GPUComputePipeline>; buildMs: number }>();

export interface KernelSpec {
  /** Label for errors and profiles. */
  label: string;
  code: string;
  entryPoint?: string;
  constants?: Record<string, number>;
}

export function computePipeline(device: GPUDevice, spec: KernelSpec): GPUComputePipeline {
  let cache = caches.get(device);
  if (!cache) {
    cache = { modules: new Map(), pipelines: new Map(), buildMs: 0 };
    caches.set(device, cache);
  }
  let module = cache.modules.get(spec.code);
  if (!module) {
    module = device.createShaderModule({ label: spec.label, code: spec.code });
    cache.modules.set(spec.code, module);
  }
  const entryPoint = spec.entryPoint ?? "main";
  const key = `${spec.label}\0${entryPoint}\0${JSON.stringify(spec.constants ?? {})}\0${spec.code.length}\0${hash(spec.code)}`;
  let pipeline = cache.pipelines.get(key);
  if (!pipeline) {
    const t0 = performance.now();
    pipeline = device.createComputePipeline({
      label: spec.label,
      layout: "auto",
      compute: { module, entryPoint, constants: spec.constants },
    });
    cache.pipelines.set(key, pipeline);
    cache.buildMs += performance.now() - t0;
  }
  return pipeline;
}

export function pipelineCacheSize(device: GPUDevice): number {
  return caches.get(device)?.pipelines.size ?? 0;
}

/** Milliseconds spent building this device's pipelines (shader compilation: most of a cold start). */
export function pipelineBuildMs(device: GPUDevice): number {
  return caches.get(device)?.buildMs ?? 0;
}

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}
