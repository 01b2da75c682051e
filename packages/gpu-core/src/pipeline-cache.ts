/**
 * Shader modules and compute pipelines, built once per (device, source, entry point,
 * constants). Kernels ask for theirs on every init; only the first builds.
 *
 * Building is most of a cold start (adr/0020-cold-start.md). Dawn compiles asynchronous
 * pipelines on a pool of two threads; `compileQueuedPipelines` makes the JavaScript thread
 * a third, so `computePipelines` keeps its own queue, largest kernels first, from which
 * Dawn's threads and the JavaScript thread each take the next as they come free.
 */
interface DeviceCache {
  modules: Map<string, GPUShaderModule>;
  pipelines: Map<string, GPUComputePipeline>;
  /** Pipelines asked for and not built yet (queued or compiling). */
  pending: Map<string, Promise<GPUComputePipeline>>;
  /** Not yet handed to Dawn, largest first. */
  queue: QueuedBuild[];
  /** Handed to Dawn and not back. */
  inFlight: number;
  buildMs: number;
}

interface QueuedBuild {
  key: string;
  spec: KernelSpec;
  module: GPUShaderModule;
  resolve: (p: GPUComputePipeline) => void;
  reject: (e: unknown) => void;
}

const caches = new WeakMap<GPUDevice, DeviceCache>();

/**
 * Builds handed to Dawn at once: its two compile threads plus one waiting, so that they do
 * not run dry while the JavaScript thread compiles (their completions, which hand Dawn the
 * next build, are only seen between the JavaScript thread's own compiles).
 */
const DAWN_IN_FLIGHT = 3;

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
    cache = { modules: new Map(), pipelines: new Map(), pending: new Map(), queue: [], inFlight: 0, buildMs: 0 };
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

/** A pipeline built on the calling thread; a shader the device rejects throws, naming the kernel. */
async function buildHere(device: GPUDevice, cache: DeviceCache, build: QueuedBuild): Promise<void> {
  const t0 = performance.now();
  device.pushErrorScope("validation");
  const pipeline = device.createComputePipeline(descriptor(build.module, build.spec));
  cache.buildMs += performance.now() - t0;
  const error = await device.popErrorScope();
  if (error) return settle(cache, build, undefined, new Error(`${build.spec.label}: ${error.message}`));
  settle(cache, build, pipeline);
}

function settle(cache: DeviceCache, build: QueuedBuild, pipeline?: GPUComputePipeline, error?: unknown): void {
  cache.pending.delete(build.key);
  if (pipeline) {
    cache.pipelines.set(build.key, pipeline);
    build.resolve(pipeline);
  } else build.reject(error);
}

/** Hands queued builds to Dawn's compile threads, largest first, up to DAWN_IN_FLIGHT. */
function feedDawn(device: GPUDevice, cache: DeviceCache): void {
  while (cache.inFlight < DAWN_IN_FLIGHT && cache.queue.length) {
    const build = cache.queue.shift()!;
    cache.inFlight++;
    device
      .createComputePipelineAsync(descriptor(build.module, build.spec))
      .then(
        (p) => settle(cache, build, p),
        (e) => settle(cache, build, undefined, e),
      )
      .then(() => {
        cache.inFlight--;
        feedDawn(device, cache);
      });
  }
}

export function computePipeline(device: GPUDevice, spec: KernelSpec): GPUComputePipeline {
  const cache = cacheOf(device);
  const key = keyOf(spec);
  let pipeline = cache.pipelines.get(key);
  if (!pipeline) {
    // queued by computePipelines and not started: built here, and that build is done with
    const queued = cache.queue.findIndex((b) => b.key === key);
    const build = queued >= 0 ? cache.queue.splice(queued, 1)[0] : undefined;
    const module = moduleOf(device, cache, spec);
    const t0 = performance.now();
    pipeline = device.createComputePipeline(descriptor(module, spec));
    cache.pipelines.set(key, pipeline);
    cache.buildMs += performance.now() - t0;
    if (build) settle(cache, build, pipeline);
  }
  return pipeline;
}

/**
 * Builds several pipelines at once and caches them, so that `computePipeline` finds them
 * built. A stage calls it with all its kernels first. The shader modules are parsed here,
 * on the calling thread (Dawn parses synchronously); the pipelines compile on Dawn's threads
 * and, once something calls `compileQueuedPipelines`, on the JavaScript thread as well.
 */
export async function computePipelines(device: GPUDevice, specs: readonly KernelSpec[]): Promise<GPUComputePipeline[]> {
  const cache = cacheOf(device);
  const wanted = specs.map((spec) => {
    const key = keyOf(spec);
    const known = cache.pipelines.get(key);
    if (known) return known;
    let pending = cache.pending.get(key);
    if (!pending) {
      const module = moduleOf(device, cache, spec);
      pending = new Promise<GPUComputePipeline>((resolve, reject) => {
        cache.queue.push({ key, spec, module, resolve, reject });
      });
      cache.pending.set(key, pending);
      // Largest first: the longest compiles start first, the short ones fill in at the end.
      // Dawn gets each as soon as its module is parsed, not once the caller's last one is.
      cache.queue.sort((a, b) => b.spec.code.length - a.spec.code.length);
      feedDawn(device, cache);
    }
    return pending;
  });
  return Promise.all(wanted);
}

/**
 * Compiles queued pipelines on the calling (JavaScript) thread until the queue is empty: a
 * third compile thread beside Dawn's two, for a caller that would otherwise only wait for
 * them (the frame runner, once every stage has asked for its kernels).
 */
export async function compileQueuedPipelines(device: GPUDevice): Promise<void> {
  const cache = caches.get(device);
  if (!cache) return;
  for (let build = cache.queue.shift(); build; build = cache.queue.shift()) await buildHere(device, cache, build);
}

export function pipelineCacheSize(device: GPUDevice): number {
  return caches.get(device)?.pipelines.size ?? 0;
}

/** Milliseconds this (JavaScript) thread spent parsing this device's shaders and building its pipelines; Dawn's own threads not counted. */
export function pipelineBuildMs(device: GPUDevice): number {
  return caches.get(device)?.buildMs ?? 0;
}

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}
