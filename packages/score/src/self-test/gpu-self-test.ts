import { VqError } from "@vq/core";
import type { GpuContext } from "@vq/gpu-core";
import { EXTRACTORS } from "../catalogue.ts";
import { resolveFeatures, type ResolvedFeature } from "../features.ts";
import { checkKernelSet, kernelSetName, type KernelSetVerdict } from "./kernel-set-check.ts";
import { VerdictCache, type CachedVerdict, type VerdictKey } from "./verdict-cache.ts";
import { VQ_VERSION } from "./vq-version.ts";

export interface SelfTestOptions {
  /** Where verdicts are cached (default: $VQ_CACHE_DIR, $XDG_CACHE_HOME/vq or ~/.cache/vq). */
  cacheDir?: string;
  /** vq's version in the verdicts' key (default: this vq's); another version's verdicts are not used. */
  version?: string;
  /** Run every kernel set even when a verdict is cached (vq doctor), and cache the new verdicts. */
  fresh?: boolean;
  /**
   * A test seam: the options each GPU stage is built with, in place of the run's (its CPU
   * twin keeps the run's). A real GPU then computes something other than the reference.
   */
  gpuOptions?: (feature: ResolvedFeature) => unknown;
}

/** One kernel set's outcome: its verdict, whether it came from the cache, and what running it cost. */
export interface KernelSetOutcome {
  readonly kernelSet: string;
  readonly verdict: KernelSetVerdict;
  readonly cached: boolean;
  readonly ms: number;
}

export interface SelfTestReport {
  readonly adapter: string;
  readonly driver: string;
  readonly outcomes: readonly KernelSetOutcome[];
  /** The first failure as one line naming the adapter, kernel set and first differing value; undefined when every set passed. */
  readonly failure?: string;
}

/** The adapter and driver a verdict is about, as the adapter describes itself. */
export function adapterIdentity(gpu: GpuContext): { adapter: string; driver: string } {
  const info = gpu.adapter.info ?? ({} as GPUAdapterInfo);
  const adapter = [info.vendor, info.architecture, info.device].filter(Boolean).join(" ") || gpu.description;
  // Dawn puts the driver (Mesa's version, NVIDIA's driver version) in the description.
  return { adapter, driver: info.description || gpu.description };
}

/**
 * The GPU self-test (adr/0033-gpu-self-test.md): every kernel set a run will use scores a
 * small fixed input on the GPU and on the CPU, and they must agree. Verdicts are cached per
 * adapter, driver, vq version and kernel set, so only the first run on a machine pays.
 * Every set is tested (a failure is rare; then vq doctor lists every set's verdict).
 */
export async function selfTestGpu(gpu: GpuContext, features: readonly ResolvedFeature[], options: SelfTestOptions = {}): Promise<SelfTestReport> {
  const { adapter, driver } = adapterIdentity(gpu);
  const cache = await VerdictCache.open(options.cacheDir);
  const outcomes: KernelSetOutcome[] = [];
  const reached: CachedVerdict[] = [];
  let failure: string | undefined;
  for (const feature of features) {
    const key: VerdictKey = { adapter, driver, vq: options.version ?? VQ_VERSION, kernelSet: kernelSetName(feature) };
    const known = options.fresh ? undefined : cache.get(key);
    let outcome: KernelSetOutcome;
    if (known) {
      const verdict: KernelSetVerdict = known.verdict === "pass" ? { status: "pass" } : { status: "mismatch", detail: known.detail ?? key.kernelSet };
      outcome = { kernelSet: key.kernelSet, verdict, cached: true, ms: 0 };
    } else {
      const t0 = performance.now();
      const verdict = await checkKernelSet(gpu, feature, options.gpuOptions?.(feature) ?? feature.options);
      outcome = { kernelSet: key.kernelSet, verdict, cached: false, ms: performance.now() - t0 };
      // A GPU error is no verdict on the kernels (a lost device may be back next time); an untested set is none either.
      if (verdict.status === "pass" || verdict.status === "mismatch") reached.push({ ...key, verdict: verdict.status, detail: "detail" in verdict ? verdict.detail : undefined, at: new Date().toISOString() });
    }
    outcomes.push(outcome);
    if (outcome.verdict.status === "mismatch" || outcome.verdict.status === "gpu-error") failure ??= `GPU self-test failed on ${gpu.description}: ${outcome.verdict.detail}`;
  }
  cache.save(reached);
  return { adapter, driver, outcomes, failure };
}

/**
 * The self-test where a run places its work: undefined when the GPU may be trusted with
 * `features`, else the note that it falls back to the CPU (`auto`). With `gpu` asked for,
 * a failure is an error.
 */
export async function refuseUntrustedGpu(kind: "gpu" | "auto", gpu: GpuContext, features: readonly ResolvedFeature[], options: SelfTestOptions): Promise<string | undefined> {
  if (!features.length) return undefined;
  const { failure } = await selfTestGpu(gpu, features, options);
  if (!failure) return undefined;
  if (kind === "gpu") throw new VqError(`${failure} (use --backend cpu; vq doctor lists every kernel set's verdict)`);
  return `${failure}; computing on the CPU`;
}

/** Every kernel set vq has on the GPU, with default options (what vq doctor tests). */
export async function everyGpuKernelSet(): Promise<ResolvedFeature[]> {
  return resolveFeatures(EXTRACTORS.filter((e) => e.load.gpu).map((e) => ({ name: e.name, options: {} })));
}
