/**
 * Shader modules and compute pipelines, built once per (device, source, entry point,
 * constants). Kernels ask for theirs on every init; only the first builds.
 */
interface DeviceCache {
  modules: Map<string, GPUShaderModule>;
  pipelines: Map<string, GPUComputePipeline>;
  /** Pipelines being built asynchronously. */
  pending: Map<string, Promise<GPUComputePipeline>>;
  buildMs: number;
}
const caches = new WeakMap<GPUDevice, DeviceCache>();

export interface KernelSpec {
  /** Label for errors and profiles. */
  label: string;
  code: string;
  entryPoint?: string;
  constants?: Record<string, number>;
}

function cacheOf(device: GPUDevice): DeviceCache {
  let cache = caches.get(device);
  if (!cache) {
    cache = { modules: new Map(), pipelines: new Map(), pending: new Map(), buildMs: 0 };
    caches.set(device, cache);
  }
  return cache;
}

function moduleOf(device: GPUDevice, cache: DeviceCache, spec: KernelSpec): GPUShaderModule {
  let module = cache.modules.get(spec.code);
  if (!module) {
    const t0 = performance.now();
    module = device.createShaderModule({ label: spec.label, code: spec.code });
    cache.modules.set(spec.code, module);
    cache.buildMs += performance.now() - t0;
  }
  return module;
}

function keyOf(spec: KernelSpec): string {
  return `${spec.label}\0${spec.entryPoint ?? "main"}\0${JSON.stringify(spec.constants ?? {})}\0${spec.code.length}\0${hash(spec.code)}`;
}

function descriptor(module: GPUShaderModule, spec: KernelSpec): GPUComputePipelineDescriptor {
  return { label: spec.label, layout: "auto", compute: { module, entryPoint: spec.entryPoint ?? "main", constants: spec.constants } };
}

export function computePipeline(device: GPUDevice, spec: KernelSpec): GPUComputePipeline {
  const cache = cacheOf(device);
  const key = keyOf(spec);
  let pipeline = cache.pipelines.get(key);
  if (!pipeline) {
    const module = moduleOf(device, cache, spec);
    const t0 = performance.now();
    pipeline = device.createComputePipeline(descriptor(module, spec));
    cache.pipelines.set(key, pipeline);
    cache.buildMs += performance.now() - t0;
  }
  return pipeline;
}

/**
 * Builds several pipelines at once (Dawn compiles asynchronous pipelines on its worker
 * threads: about half the time of one after another on the H100 machine) and caches them,
 * so that `computePipeline` finds them built. A stage calls it with all its kernels first.
 */
export async function computePipelines(device: GPUDevice, specs: readonly KernelSpec[]): Promise<GPUComputePipeline[]> {
  const cache = cacheOf(device);
  const t0 = performance.now();
  const built = await Promise.all(
    specs.map((spec) => {
      const key = keyOf(spec);
      const known = cache.pipelines.get(key);
      if (known) return known;
      let pending = cache.pending.get(key);
      if (!pending) {
        pending = device.createComputePipelineAsync(descriptor(moduleOf(device, cache, spec), spec)).then((p) => {
          cache.pipelines.set(key, p);
          cache.pending.delete(key);
          return p;
        });
        cache.pending.set(key, pending);
      }
      return pending;
    }),
  );
  cache.buildMs += performance.now() - t0;
  return built;
}

export function pipelineCacheSize(device: GPUDevice): number {
  return caches.get(device)?.pipelines.size ?? 0;
}

/** Milliseconds spent building this device's shader modules and pipelines (most of a cold start; parallel builds counted by wall time). */
export function pipelineBuildMs(device: GPUDevice): number {
  return caches.get(device)?.buildMs ?? 0;
}

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}
