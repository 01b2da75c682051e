import { expectedKeys, firstUnfinishedFrame, isStreamInput, streamName, PerLaneBackend, ResumedCollector, scoreLadder, scoreVideos, VqError, warmUpStart, type FeatureCollector, type LadderOptions, type LadderResult, type PictureFormat, type ScoreOptions, type ScoreResult, type VideoReader } from "@vq/core";
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

/** `say`, saying each message once (a run resumed after a lost GPU meets the inputs' ends again). */
export function sayOnce(say: ((message: string) => void) | undefined): (message: string) => void {
  const said = new Set<string>();
  return (message) => {
    if (said.has(message)) return;
    said.add(message);
    say?.(message);
  };
}

/**
 * Opens an input again from its start for a run resumed after a lost GPU (`lost` says
 * that), or says why it cannot be: a stream is read once, and a VideoReader given by the
 * caller cannot be rewound.
 */
export async function rereadable(source: string | VideoReader, open: (() => Promise<VideoReader>) | undefined, lost: string): Promise<VideoReader> {
  if (typeof source !== "string" || !open) throw new VqError(`${lost}; ${typeof source === "string" ? source : source.name} was given as frames (a VideoReader) and cannot be re-read; rerun with backend "cpu"`);
  if (isStreamInput(source)) throw new VqError(`${lost}; ${streamName(source)} is a stream and cannot be re-read; rerun with --backend cpu`);
  return open();
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
  const extractors = extractorsOf(run.features);
  const from = firstUnfinishedFrame(collector, expectedKeys(extractors, run.format), run.subsample);
  const lost = lossAt(loss, from);
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

function extractorsOf(features: readonly ResolvedFeature[]) {
  return features.map((f) => ({ definition: f.entry.definition, options: f.options }));
}

function lossAt(loss: GPUDeviceLostInfo, frame: number): string {
  return `GPU device lost (${describeLoss(loss)}) at frame ${frame}`;
}

export interface StoppedLadder extends Omit<StoppedRun, "options" | "reopen"> {
  /** The ladder's options; `collectors` hold what each lane scored. */
  options: LadderOptions & { collectors: readonly FeatureCollector[] };
  /** The reference and every lane's input opened again from their start, or a VqError that starts with `lost`. */
  reopen: (lost: string) => Promise<[VideoReader, VideoReader[]]>;
}

/**
 * resumeOnCpu for a ladder: each lane keeps its frames done and goes on from its first
 * unfinished one; the CPU run starts before the earliest of them (by the warm-up) for all
 * lanes, as one ladder run (the reference read once). A lane that had ended or failed ends
 * or fails again at the same frame, its inputs being the same.
 */
export async function resumeLadderOnCpu(loss: GPUDeviceLostInfo, run: StoppedLadder): Promise<LadderResult & { resumedAt: number }> {
  const { collectors } = run.options;
  const extractors = extractorsOf(run.features);
  const keys = expectedKeys(extractors, run.format);
  const froms = collectors.map((c) => firstUnfinishedFrame(c, keys, run.subsample));
  const from = Math.min(...froms);
  const lost = lossAt(loss, from);
  const [ref, dists] = await run.reopen(lost);
  run.onNote?.(`${lost}; continuing on the CPU`);
  collectors.forEach((c, lane) => c.discardFrom(froms[lane]!));
  const backend = new PerLaneBackend(dists.map(() => cpuBackend(run.features, run.subsample, Math.ceil(run.threads / dists.length))));
  const result = await scoreLadder(ref, dists, backend, {
    ...run.options,
    featureOrder: undefined, // the run's collectors have their order already
    firstFrame: warmUpStart(from, extractors),
    collectors: collectors.map((c, lane) => new ResumedCollector(c, froms[lane]!)),
  });
  return { ...result, lanes: result.lanes.map((l, lane) => ({ ...l, collector: collectors[lane]! })), resumedAt: from };
}
