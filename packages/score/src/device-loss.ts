import { expectedKeys, firstUnfinishedFrame, ResumedCollector, scoreVideos, VqError, warmUpStart, type FeatureCollector, type PictureFormat, type ScoreOptions, type ScoreResult, type VideoReader } from "@vq/core";
import type { GpuContext } from "@vq/gpu-core";
import { cpuBackend } from "./backend.ts";
import type { ResolvedFeature } from "./features.ts";

/**
 * How long a run that failed on the GPU waits for the device to report its loss: Dawn may
 * reject a pending readback before it resolves `device.lost`. Only a failed run waits.
 */
const LOSS_REPORT_MS = 1000;

/** The loss of `gpu`'s device, when that is what ended a run with `error`; undefined for any other failure. */
export async function deviceLoss(gpu: GpuContext, error: unknown): Promise<GPUDeviceLostInfo | undefined> {
  // Only the GPU code's own errors (GpuContext.assertHealthy, the frame runner) wait for the
  // report; any other (an input's, a Dawn call's) counts when the loss is known already.
  if (!(error instanceof VqError) || !/^GPU /.test(error.message)) return Promise.race([gpu.lost, undefined]);
  let timer: Parameters<typeof clearTimeout>[0];
  const notLost = new Promise<undefined>((resolve) => (timer = setTimeout(resolve, LOSS_REPORT_MS)));
  try {
    return await Promise.race([gpu.lost, notLost]);
  } finally {
    clearTimeout(timer);
  }
}

/** "destroyed" (by vq or its caller), or the reason and the driver's message, on one line. */
export function describeLoss(info: GPUDeviceLostInfo): string {
  const message = info.message?.replace(/\s+/g, " ").trim();
  return message && info.reason !== "destroyed" ? `${info.reason}: ${message}` : info.reason;
}

export interface StoppedRun {
  /** Every feature of the run, wherever it was computed. */
  features: readonly ResolvedFeature[];
  format: PictureFormat;
  subsample: number;
  threads: number;
  /** The run's options; `collector` holds what it scored. */
  options: ScoreOptions & { collector: FeatureCollector };
  /**
   * Both inputs opened again from their start (as the run opened them), or a VqError that
   * starts with `lost` and says why one cannot be.
   */
  reopen: (lost: string) => Promise<[VideoReader, VideoReader]>;
  onNote?: (message: string) => void;
}

/**
 * A run whose GPU device was lost goes on on the CPU: every frame whose scores are all in
 * is kept; from the first one that is not, every feature (those on the GPU and those that
 * were on the CPU) is computed again on the CPU, its extractors started the frames before
 * that their warm-up needs (ExtractorDefinition.warmUpFrames) and what they write for those
 * dropped. The scores are those of a run on the CPU from frame 0. ADR 0034.
 */
export async function resumeOnCpu(loss: GPUDeviceLostInfo, run: StoppedRun): Promise<ScoreResult & { resumedAt: number }> {
  const { collector } = run.options;
  const extractors = run.features.map((f) => ({ definition: f.entry.definition, options: f.options }));
  const from = firstUnfinishedFrame(collector, expectedKeys(extractors, run.format), run.subsample);
  const lost = `GPU device lost (${describeLoss(loss)}) at frame ${from}`;
  const [ref, dist] = await run.reopen(lost);
  run.onNote?.(`${lost}; continuing on the CPU`);
  collector.discardFrom(from);
  const result = await scoreVideos(ref, dist, cpuBackend(run.features, run.subsample, run.threads), {
    ...run.options,
    featureOrder: undefined, // the run's collector has its order already
    firstFrame: warmUpStart(from, extractors),
    collector: new ResumedCollector(collector, from),
  });
  return { ...result, collector, resumedAt: from };
}
