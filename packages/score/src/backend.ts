import { CompositeBackend, CompositeLadderBackend, CpuBackend, fastMemoriesNote, PerLaneBackend, ThreadedCpuBackend, VqError, type ExtractionBackend, type LadderBackend } from "@vq/core";
import { GpuBackend, GpuLadderBackend, isNoAdapterError, sharedGpu, type GpuContext, type GpuFeatureEntry } from "@vq/gpu-core";
import type { ResolvedFeature } from "./features.ts";
import { refuseUntrustedGpu, type SelfTestOptions } from "./self-test/gpu-self-test.ts";

/** Where to compute: `auto` = the GPU when a hardware adapter exists, else the CPU. */
export type Backend = "cpu" | "gpu" | "auto";

export interface BackendChoice {
  backend: ExtractionBackend;
  /** The GPU part of `backend`, when there is one (for its timestamp profile). */
  gpuBackend?: GpuBackend;
  /** What to tell the user about the choice (fallbacks), if anything. */
  notes: string[];
}

export interface BackendOptions {
  subsample?: number;
  threads?: number;
  /** Record GPU timestamps per kernel pass (the runner's profile). */
  profileGpu?: boolean;
  acquire?: () => Promise<GpuContext>;
  /**
   * The GPU self-test's settings (adr/0033-gpu-self-test.md), or false to trust the GPU
   * untested: for callers that checked it themselves, or that cannot keep a cache and
   * score many short clips (each process would pay the first run's cost).
   */
  selfTest?: SelfTestOptions | false;
}

/** CPU extractors on one thread, or spread over `threads` workers (libvmaf's --threads). */
export function cpuBackend(features: readonly ResolvedFeature[], subsample: number, threads: number): ExtractionBackend {
  if (threads <= 1) return new CpuBackend(features.map((f) => f.entry.cpu(f.options)), subsample);
  const worker = new URL("./extraction-worker.ts", import.meta.url);
  const extractors = features.map((f) => ({ extractor: f.entry.cpu(f.options), spec: { name: f.entry.definition.name, options: f.options } }));
  return new ThreadedCpuBackend(extractors, worker, threads, subsample);
}

/** Where each feature runs, once the adapter question is settled. */
interface Placement {
  gpu?: GpuContext;
  onGpu: ResolvedFeature[];
  onCpu: ResolvedFeature[];
  notes: string[];
}

/**
 * cpu: every extractor on the CPU. gpu: extractors with a GPU twin on the GPU, the rest on
 * the CPU. auto: gpu when a hardware adapter exists, else cpu, and says so.
 */
async function place(kind: Backend, features: readonly ResolvedFeature[], acquire: () => Promise<GpuContext>, selfTest: SelfTestOptions | false = {}): Promise<Placement> {
  const notes: string[] = [];
  const cpuOnly = { onGpu: [], onCpu: [...features], notes };
  if (kind === "cpu") return cpuOnly;
  let gpu: GpuContext;
  try {
    gpu = await acquire();
  } catch (e) {
    if (kind === "auto" && isNoAdapterError(e)) {
      notes.push(`${(e as Error).message.split(".")[0]}; computing on the CPU`);
      return cpuOnly;
    }
    throw e;
  }
  if (kind === "auto" && gpu.isSoftware) {
    // A software rasteriser is slower than vq's CPU path: auto picks the CPU.
    notes.push(`the WebGPU adapter is a software renderer (${gpu.description}); computing on the CPU (asking for the gpu backend forces it)`);
    return cpuOnly;
  }
  const onGpu = features.filter((f) => f.catalogued.load.gpu);
  const onCpu = features.filter((f) => !f.catalogued.load.gpu);
  const refused = selfTest && (await refuseUntrustedGpu(kind, gpu, onGpu, selfTest));
  if (refused) {
    notes.push(refused);
    return cpuOnly;
  }
  if (onCpu.length && kind === "gpu") {
    notes.push(`no GPU implementation yet for ${onCpu.map((f) => f.entry.definition.name).join(", ")}: computed on the CPU`);
  }
  return { gpu, onGpu, onCpu, notes };
}

/** The GPU twins' factories, their code loaded only now, for a GPU run. */
async function gpuEntries(onGpu: readonly ResolvedFeature[]): Promise<GpuFeatureEntry[]> {
  return (await Promise.all(onGpu.map((f) => f.catalogued.load.gpu!()))) as GpuFeatureEntry[];
}

/** One GPU backend for the features with a GPU twin (one upload per frame shared by all), the CPU for the rest. */
export async function chooseBackend(kind: Backend, features: readonly ResolvedFeature[], options: BackendOptions = {}): Promise<BackendChoice> {
  const { subsample = 1, threads = 1, profileGpu = false, acquire = () => sharedGpu() } = options;
  const { gpu, onGpu, onCpu, notes } = await place(kind, features, acquire, options.selfTest);
  const backends: ExtractionBackend[] = [];
  const entries = await gpuEntries(onGpu);
  const gpuBackend = gpu && onGpu.length ? new GpuBackend(gpu, entries.map((e, i) => e.gpu!(onGpu[i]!.options)), { subsample, profile: profileGpu }) : undefined;
  if (gpuBackend) backends.push(gpuBackend);
  if (onCpu.length) backends.push(cpuBackend(onCpu, subsample, threads));
  if (!backends.length) throw new VqError("nothing to compute: give at least one entry in features, or a model");
  const memories = onCpu.length ? fastMemoriesNote(onCpu.length, threads) : undefined;
  return { backend: backends.length === 1 ? backends[0]! : new CompositeBackend(backends), gpuBackend, notes: memories ? [...notes, memories] : notes };
}

/**
 * chooseBackend for a ladder of `lanes` distorted inputs: on the GPU one runner for every
 * lane (the reference uploaded once per frame), on the CPU one backend per lane.
 */
export async function chooseLadderBackend(kind: Backend, features: readonly ResolvedFeature[], lanes: number, options: BackendOptions = {}): Promise<{ backend: LadderBackend; notes: string[]; gpu?: GpuContext }> {
  const { subsample = 1, threads = 1, acquire = () => sharedGpu() } = options;
  const { gpu, onGpu, onCpu, notes } = await place(kind, features, acquire, options.selfTest);
  const backends: LadderBackend[] = [];
  const entries = await gpuEntries(onGpu);
  const each = <T>(make: () => T) => Array.from({ length: lanes }, make);
  const onDevice = gpu && onGpu.length ? gpu : undefined;
  if (onDevice) backends.push(new GpuLadderBackend(onDevice, each(() => entries.map((e, i) => e.gpu!(onGpu[i]!.options))), { subsample }));
  // --threads is the whole run's: shared out among the lanes.
  if (onCpu.length) backends.push(new PerLaneBackend(each(() => cpuBackend(onCpu, subsample, Math.ceil(threads / lanes)))));
  if (!backends.length) throw new VqError("nothing to compute: give at least one entry in features, or a model");
  // every lane's extractors count (the memories are the process's): on its workers, or on this thread
  const memories = onCpu.length ? fastMemoriesNote(onCpu.length, lanes * Math.ceil(threads / lanes)) : undefined;
  return { backend: backends.length === 1 ? backends[0]! : new CompositeLadderBackend(backends), notes: memories ? [...notes, memories] : notes, gpu: onDevice };
}
