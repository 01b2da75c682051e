import { FeatureCollector, isVqError } from "@vq/core";
import { GpuFrameRunner, type GpuContext, type GpuFeatureEntry } from "@vq/gpu-core";
import type { ResolvedFeature } from "../features.ts";
import { firstDifference, type Agreement } from "./score-difference.ts";
import { SELF_TEST_FRAMES, selfTestFormat, selfTestPair } from "./self-test-input.ts";

/**
 * A kernel set's self-test: it agrees with its CPU twin, differs (`detail` names the first
 * value), failed on the GPU, or could not be tested: the CPU twin refuses the test's input
 * with the run's options (cambi's enc_width, say); the run then checks its own input.
 */
export type KernelSetVerdict = { readonly status: "pass" } | { readonly status: "mismatch" | "gpu-error" | "untested"; readonly detail: string };

/**
 * The extractors whose GPU twin computes libvmaf's integer arithmetic, so that its scores
 * are the CPU's doubles: their parity tables (packages/<metric>/src/parity.test.ts) hold
 * the GPU to `identical`. The others are held to the contract's float bound.
 */
const IDENTICAL_ON_GPU: ReadonlySet<string> = new Set(["adm", "cambi", "motion", "psnr", "vif"]);

export function agreementOf(name: string): Agreement {
  return IDENTICAL_ON_GPU.has(name) ? "identical" : "float";
}

/** Options that write files (cambi's heatmaps): the self-test clears them, so that it writes nothing where the user looks. */
const WRITES_FILES = ["heatmaps_path"];

function withoutFiles<T>(options: T): T {
  const o = { ...(options as Record<string, unknown>) };
  for (const k of WRITES_FILES) if (k in o) o[k] = "";
  return o as T;
}

/** A kernel set's name in verdicts and messages: the extractor and the options it runs with. */
export function kernelSetName(feature: ResolvedFeature): string {
  const options = Object.entries(withoutFiles(feature.options) as Record<string, unknown>)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${String(v)}`);
  return [feature.entry.definition.name, ...options].join(":");
}

function unhealthy(gpu: GpuContext): Error | undefined {
  try {
    gpu.assertHealthy();
    return undefined;
  } catch (e) {
    return e as Error;
  }
}

/**
 * Scores the self-test's frames with the feature's GPU stage and with its CPU twin and
 * compares them. `gpuOptions` builds the stage with other options than the twin (a test
 * seam: a real GPU computing something other than the CPU reference, no stubbed result).
 */
export async function checkKernelSet(gpu: GpuContext, feature: ResolvedFeature, gpuOptions: unknown = feature.options): Promise<KernelSetVerdict> {
  const name = feature.entry.definition.name;
  const cpuScores = new FeatureCollector();
  const format = selfTestFormat(name);
  const pairs = Array.from({ length: SELF_TEST_FRAMES }, (_, i) => selfTestPair(i, format));
  const cpu = feature.entry.cpu(withoutFiles(feature.options));
  try {
    await cpu.init(format);
    for (const [i, pair] of pairs.entries()) await cpu.extract(pair, i, cpuScores);
    await cpu.flush(cpuScores);
  } catch (e) {
    if (!isVqError(e)) throw e;
    return { status: "untested", detail: `${name} cannot score the self-test's input with these options: ${e.message}` };
  } finally {
    await cpu.close();
  }

  const gpuScores = new FeatureCollector();
  try {
    const entry = (await feature.catalogued.load.gpu!()) as GpuFeatureEntry;
    const runner = new GpuFrameRunner(gpu, [entry.gpu!(withoutFiles(gpuOptions) as never)]);
    try {
      await runner.init(format, SELF_TEST_FRAMES);
      for (const [i, pair] of pairs.entries()) await runner.submit(pair, i, gpuScores);
      await runner.flush(gpuScores);
    } finally {
      await runner.close();
    }
    gpu.assertHealthy();
  } catch (e) {
    // The GPU's failures (a lost device, a validation error) are VqErrors, or leave the
    // device unhealthy; anything else is a bug in vq, not a verdict on the GPU.
    const failure = isVqError(e) ? e : unhealthy(gpu);
    if (!failure) throw e;
    return { status: "gpu-error", detail: `${name} failed on the GPU: ${failure.message.split("\n")[0]}` };
  }
  const difference = firstDifference(gpuScores, cpuScores, SELF_TEST_FRAMES, agreementOf(name));
  return difference ? { status: "mismatch", detail: `${name}: ${difference}` } : { status: "pass" };
}
