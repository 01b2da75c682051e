// WebGPU's types travel with the published declarations (@webgpu/types is a dependency):
// a consumer compiling against vq needs no `types` setting of its own.
/// <reference types="@webgpu/types" preserve="true" />
import { VqError } from "@vq/core";

/** Features vq uses when the adapter has them. */
export const WANTED_FEATURES = ["timestamp-query", "subgroups", "shader-f16"] as const;

/** Limits vq raises to the adapter's maximum (large frames need big storage buffers). */
export const RAISED_LIMITS = [
  "maxStorageBufferBindingSize",
  "maxBufferSize",
  "maxComputeWorkgroupStorageSize",
  "maxComputeInvocationsPerWorkgroup",
  "maxComputeWorkgroupSizeX",
  "maxComputeWorkgroupSizeY",
  "maxComputeWorkgroupsPerDimension",
  "maxStorageBuffersPerShaderStage",
  "maxUniformBufferBindingSize",
] as const;

export interface GpuContext {
  readonly device: GPUDevice;
  readonly adapter: GPUAdapter;
  readonly description: string;
  readonly features: ReadonlySet<string>;
  readonly hasTimestamps: boolean;
  /** A software rasteriser (Mesa's lavapipe/llvmpipe, SwiftShader, a fallback adapter). */
  readonly isSoftware: boolean;
  /** Throws a VqError if the device was lost or reported an error. */
  assertHealthy(): void;
  /**
   * Keeps the device's memory alive until `io` settles: file reads running on I/O threads
   * into a mapped buffer. `device.destroy()` waits for them (it would otherwise unmap the
   * memory under them: a crash, not an error).
   */
  holdMappedWhile(io: Promise<unknown>): void;
  /** Set once the device is lost; resolves with the reason. */
  readonly lost: Promise<GPUDeviceLostInfo>;
}

export interface AcquireOptions {
  powerPreference?: GPUPowerPreference;
  /** Extra Dawn toggles for Bun/Node, e.g. "disable-dawn-features=timestamp_quantization". */
  dawnOptions?: string[];
}

/**
 * Dawn toggles for Bun/Node (adr/0015-dawn-robustness-off.md):
 * - nanosecond timestamps for `--gpu-profile`, not Dawn's 100 µs quantised ones;
 * - no robustness transform: Tint would clamp every storage access in every kernel, and
 *   vq's kernels check their own bounds (6 % of VMAF v1's GPU time at 4K on an H100).
 */
export const DAWN_TOGGLES = ["disable-dawn-features=timestamp_quantization", "enable-dawn-features=disable_robustness"];

/**
 * Dawn's `create()` result must outlive every GPU completion: under Bun, once it is
 * garbage-collected the next completion callback segfaults the process. It is kept
 * here for the life of the process.
 */
const retainedDawnInstances: unknown[] = [];

export function retainedInstanceCount(): number {
  return retainedDawnInstances.length;
}

interface DawnModule {
  create: (opts: string[]) => GPU;
  globals: Record<string, unknown>;
}

/** The package that gives Node and Bun WebGPU: an optional peer, installed by GPU users only. */
export const DAWN_PACKAGE = "webgpu";

/**
 * Dawn's binding, imported on the first GPU use only: a CPU run never loads it, and an
 * install without it (`--omit=optional`, a CPU-only library user) works until the GPU is asked for.
 */
export async function loadDawn(specifier: string = DAWN_PACKAGE): Promise<DawnModule> {
  try {
    // A specifier bundlers leave alone: browser bundles must not pull in Dawn's native addon.
    return (await import(specifier)) as DawnModule;
  } catch (e) {
    const message = (e as Error).message ?? String(e);
    // Not found itself (a module Dawn needs that is missing is a broken install: the other message)
    const missing = /Cannot find (package|module)|not found|ERR_MODULE_NOT_FOUND/i.test(message) && new RegExp(`['"]${specifier}['"]`).test(message);
    if (missing) throw new VqError(`no WebGPU: the GPU needs the "${specifier}" package (Dawn), which is not installed: npm install ${specifier}`, { cause: e });
    const reason = message.split("\n")[0];
    throw new VqError(`no WebGPU: the "${specifier}" package (Dawn) could not be loaded: ${reason}`, { cause: e });
  }
}

async function getGpu(options: AcquireOptions): Promise<GPU> {
  const nav = (globalThis as { navigator?: { gpu?: GPU } }).navigator;
  const isNodeLike = typeof (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node === "string";
  const isDeno = typeof (globalThis as { Deno?: unknown }).Deno !== "undefined";
  if ((isDeno || !isNodeLike) && nav?.gpu) return nav.gpu;
  if (!isNodeLike) throw new VqError("no WebGPU: this runtime has no navigator.gpu");
  const dawn = await loadDawn();
  Object.assign(globalThis, dawn.globals);
  const gpu = dawn.create([...DAWN_TOGGLES, ...(options.dawnOptions ?? [])]);
  retainedDawnInstances.push(gpu);
  return gpu;
}

export const NO_ADAPTER_HELP =
  "no WebGPU adapter found. Without a GPU on Linux, install Mesa's lavapipe (Debian bookworm: mesa-vulkan-drivers from bookworm-backports, 25.x; bookworm's own mesa 22 is too old for Dawn), or use --backend cpu";

export async function acquireGpu(options: AcquireOptions = {}): Promise<GpuContext> {
  const gpu = await getGpu(options);
  const adapter = await gpu.requestAdapter({ powerPreference: options.powerPreference ?? "high-performance" });
  if (!adapter) throw new VqError(NO_ADAPTER_HELP);
  const requiredFeatures = WANTED_FEATURES.filter((f) => adapter.features.has(f)) as GPUFeatureName[];
  const requiredLimits: Record<string, number> = {};
  for (const name of RAISED_LIMITS) {
    const v = (adapter.limits as unknown as Record<string, number>)[name];
    if (typeof v === "number") requiredLimits[name] = v;
  }
  const device = await adapter.requestDevice({ requiredFeatures, requiredLimits });
  let failure: string | undefined;
  const mappedIo = new Set<Promise<unknown>>();
  const destroy = device.destroy.bind(device);
  device.destroy = () => {
    failure ??= "GPU device lost (destroyed)";
    if (!mappedIo.size) return destroy();
    void Promise.allSettled([...mappedIo]).then(() => destroy());
  };
  const lost = device.lost.then((info) => {
    failure ??= `GPU device lost (${info.reason}): ${info.message || "no message"}`;
    return info;
  });
  device.addEventListener("uncapturederror", (ev) => {
    failure ??= `GPU error: ${(ev as GPUUncapturedErrorEvent).error.message}`;
  });
  const info = adapter.info;
  const description = [info.vendor, info.architecture, info.description].filter(Boolean).join(" ") || "unknown adapter";
  return {
    device,
    adapter,
    description,
    features: new Set(requiredFeatures),
    hasTimestamps: requiredFeatures.includes("timestamp-query"),
    isSoftware: Boolean((info as { isFallbackAdapter?: boolean }).isFallbackAdapter) || /llvmpipe|lavapipe|swiftshader|software/i.test(description),
    lost,
    assertHealthy() {
      if (failure) throw new VqError(failure);
    },
    holdMappedWhile(io) {
      mappedIo.add(io);
      const done = () => void mappedIo.delete(io);
      io.then(done, done);
    },
  };
}

let shared: Promise<GpuContext> | undefined;

/** One device per process, shared by every GPU extractor; once it is lost, the next call acquires a new one. */
export function sharedGpu(options: AcquireOptions = {}): Promise<GpuContext> {
  if (shared) return shared;
  const acquired = acquireGpu(options).then(
    (gpu) => {
      void gpu.lost.then(() => {
        if (shared === acquired) shared = undefined;
      });
      return gpu;
    },
    (e) => {
      shared = undefined;
      throw e;
    },
  );
  shared = acquired;
  return acquired;
}

/** True when `e` means there is no usable adapter (so `--backend auto` may fall back). */
export function isNoAdapterError(e: unknown): boolean {
  return e instanceof VqError && e.message.startsWith("no WebGPU");
}
