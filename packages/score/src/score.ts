import { z } from "zod";
import { CompositeBackend, FeatureCollector, isStreamInput, lumaView, openFileSource, LIMITS, type ScoreResult, needsFfmpeg, openStreamInput, openWithFfmpeg, type ExtendedPooledScore, type FfmpegOptions, RawYuvReader, scoreVideos, VqError, Y4mReader, type PictureFormat, type PixelFormat, type PooledScore, type VideoReader } from "@vq/core";
import { sharedGpu } from "@vq/gpu-core";
import { modelScoreKeys, type LoadedModel } from "@vq/model";
import { DEFAULT_ALIGN_SEARCH, type Alignment } from "./alignment.ts";
import { chooseBackend } from "./backend.ts";
import { deviceLoss, rereadable, resumeOnCpu, sayOnce } from "./device-loss.ts";
import { changesRate, SCALERS } from "./conform.ts";
import { prepareDistorted } from "./distorted-input.ts";
import { parseFeatureString, type FeatureRequest } from "./feature-request.ts";
import { resolveFeatures, type ResolvedFeature } from "./features.ts";
import { loadModels, modelFeatureRequests } from "./models.ts";
import { FrameQueue } from "./frame-queue.ts";
import { RunOutput } from "./run-output.ts";
import { RepeatedFrames } from "./repeated-frames.ts";

const optionValue = z.union([z.string(), z.number(), z.boolean()]);
export const input = z.union([z.string().min(1), z.custom<VideoReader>((v) => typeof (v as VideoReader)?.read === "function", "a path or a VideoReader")]);

/** What `score` takes; the `vq` command builds the same request from libvmaf's arguments. */
export const scoreRequestSchema = z.strictObject({
  reference: input,
  distorted: input,
  /** Needed for raw .yuv paths. */
  raw: z.strictObject({ width: z.number().int().positive(), height: z.number().int().positive(), pixelFormat: z.enum(["420", "422", "444", "400"]), bitDepth: z.number().int().min(8).max(16) }).optional(),
  /** Feature extractors: libvmaf's `name=opt=val:...` strings or { name, options }. */
  features: z.array(z.union([z.string(), z.strictObject({ name: z.string(), options: z.record(z.string(), optionValue).default({}) })])).default([]),
  /** Models in libvmaf's model syntax (`version=NAME` or `path=FILE`, `:name=..` etc.); none given and prediction on = vmaf_v0.6.1. */
  models: z.array(z.string()).default([]),
  noPrediction: z.boolean().default(false),
  backend: z.enum(["cpu", "gpu", "auto"]).default("auto"),
  threads: z.number().int().min(1).max(LIMITS.threads).default(1),
  subsample: z.number().int().min(1).default(1),
  frameCount: z.number().int().min(1).optional(),
  skipRef: z.number().int().min(0).default(0),
  skipDist: z.number().int().min(0).default(0),
  /** The ffmpeg binary used for inputs other than Y4M and raw YUV. */
  ffmpeg: z.string().min(1).optional(),
  /** ffmpeg's `-hwaccel` for decoding those inputs (cuda, vaapi, qsv, videotoolbox, ... as that ffmpeg has them). */
  hwaccel: z.string().regex(/^[a-z0-9_]+$/, "expected an ffmpeg hwaccel name such as cuda, vaapi, qsv or videotoolbox").optional(),
  /** ffmpeg's decoding threads per input it decodes (`-threads N`; 0 or absent: ffmpeg's own choice). scoreBatch's `decoderThreads` sets it for jobs without one. */
  decoderThreads: z.number().int().min(0).max(LIMITS.threads).optional(),
  /** Scale the distorted video to the reference's size (through ffmpeg, with `scaler`). */
  scaleDistorted: z.boolean().default(false),
  /** Convert the distorted video to the reference's size, bit depth, subsampling and frame rate (through ffmpeg); without it they must match. */
  conform: z.boolean().default(false),
  /** swscale's algorithm for scaleDistorted and conform. */
  scaler: z.enum(SCALERS).default("bicubic"),
  /** Find the offset between the inputs within ±search frames and skip frames as libvmaf's --frame_skip_ref/_dist would. */
  align: z.strictObject({ search: z.number().int().min(1).max(10000).default(DEFAULT_ALIGN_SEARCH) }).optional(),
  /** Inputs of different lengths are an error instead of a warning (the common part is scored). */
  strictLength: z.boolean().default(false),
  /** Time every GPU kernel pass with timestamp queries (ScoreSummary.gpuTimeNs). */
  profileGpu: z.boolean().default(false),
  /**
   * Check the GPU against the CPU before trusting it (adr/0033-gpu-self-test.md; verdicts
   * cached). false skips it: for callers that checked the GPU themselves, or that run where
   * no cache persists and score many short clips.
   */
  gpuSelfTest: z.boolean().default(true),
  /** "extended": ScoreSummary.pooled also has median, stdev, p1, p5 and p95. */
  pool: z.enum(["libvmaf", "extended"]).default("libvmaf"),
});
export type ScoreRequest = z.input<typeof scoreRequestSchema>;
export type ParsedScoreRequest = z.infer<typeof scoreRequestSchema>;

export interface FrameScores {
  frameNum: number;
  metrics: Record<string, number>;
}

/** libvmaf's pooled statistics; with `pool: "extended"` the distribution's too. */
export type PooledStatistics = PooledScore & Partial<ExtendedPooledScore>;

export interface ScoreSummary {
  frames: number;
  pooled: Record<string, PooledStatistics>;
  aggregate: Record<string, number>;
  /** Everything scored, for libvmaf's writers. */
  collector: FeatureCollector;
  width: number;
  height: number;
  backend: string;
  /** With `profileGpu`: GPU time per kernel pass label, summed over the frames, in ns (empty when the adapter has no timestamps). */
  gpuTimeNs?: Record<string, number>;
  /** With `profileGpu`: summed over batches, first kernel pass start to last pass end (gaps included), in ns. */
  gpuSpanNs?: number;
  /** With `align`: the offset found (skipRef/skipDist are the frame skips the run applied). */
  alignment?: Alignment;
}

export interface ScoreEvents {
  /** Progress: frames read and scheduled so far, and the total when the inputs tell it. */
  onProgress?: (framesDone: number, total?: number) => void;
  /** Things the user should know (CPU fallback, inputs of different length, the alignment found, repeated frames). */
  onNote?: (message: string) => void;
}

/** A path opened by its kind (Y4M, raw YUV, or through ffmpeg), or a reader given as it is. */
export async function openInput(source: string | VideoReader, raw: ParsedScoreRequest["raw"], ffmpeg: FfmpegOptions): Promise<VideoReader> {
  if (typeof source !== "string") return source;
  if (isStreamInput(source) && !ffmpeg.scaleTo) return openStreamInput(source, raw && { ...raw, pixelFormat: raw.pixelFormat as PixelFormat });
  // a luma-only run's input that ffmpeg decoded whole is read as its luma plane
  if (ffmpeg.scaleTo || needsFfmpeg(source)) return openWithFfmpeg(source, ffmpeg).then((reader) => (ffmpeg.lumaOnly ? lumaView(reader) : reader));
  if (raw) return RawYuvReader.open(source, { ...raw, pixelFormat: raw.pixelFormat as PixelFormat });
  if (/\.yuv$/i.test(source)) throw new VqError(`${source}: raw YUV input needs its width, height, pixel format and bit depth`);
  return Y4mReader.open(source);
}

/** The distorted input opened to match the reference's size when scaling was asked for. */
export function openDistorted(source: string | VideoReader, r: Pick<ParsedScoreRequest, "raw" | "ffmpeg" | "hwaccel" | "decoderThreads" | "scaleDistorted" | "scaler">, ref: PictureFormat | undefined, lumaOnly = false): Promise<VideoReader> {
  if (r.scaleDistorted && !ref) throw new Error("openDistorted: scaling to the reference's size needs its format");
  return openInput(source, r.raw, { ...decoding(r, lumaOnly), scaler: r.scaler, scaleTo: r.scaleDistorted ? { width: ref!.width, height: ref!.height } : undefined });
}

/**
 * The request's ffmpeg binary, hardware decoding and decoding threads, for every input
 * ffmpeg decodes; `lumaOnly` from readsLumaOnly.
 */
export function decoding(r: Pick<ParsedScoreRequest, "ffmpeg" | "hwaccel" | "decoderThreads">, lumaOnly = false): FfmpegOptions {
  return { ffmpeg: r.ffmpeg, hwaccel: r.hwaccel, threads: r.decoderThreads, lumaOnly };
}

/**
 * Whether a run reads its inputs' luma planes alone (adr/0043-luma-only-decoding.md): every
 * input a file ffmpeg decodes, none converted (--conform), and every extractor, the
 * models' included, reading luma only under its options.
 */
export function readsLumaOnly(r: Pick<ParsedScoreRequest, "conform">, plan: RunPlan, inputs: readonly (string | VideoReader)[]): boolean {
  if (r.conform) return false;
  if (!inputs.every((s) => typeof s === "string" && !isStreamInput(s) && needsFfmpeg(s))) return false;
  return plan.features.every((f) => f.catalogued.lumaOnly?.(f.options) === true);
}

export function parseRequest<S extends z.ZodType>(schema: S, request: unknown): z.infer<S> {
  const r = schema.safeParse(request);
  if (!r.success) {
    const i = r.error.issues[0]!;
    throw new VqError(`score options: ${i.path.join(".") || "(root)"}: ${i.message}`);
  }
  return r.data;
}

/**
 * A scoring run: an async iterable of each frame's scores (features and model scores,
 * libvmaf's key names) in frame order as soon as a frame is complete, plus `result`, the
 * pooled scores once the run ends. The run goes on whether or not its frames are read:
 * `await run.result` alone is enough (frames not read wait in memory, a few hundred bytes
 * each, beside the collector that holds every score anyway). Leaving a `for await` early
 * stops the hand-out of frames, not the run. A failure rejects `result` and throws from
 * the iteration.
 */
export interface ScoreRun extends AsyncIterableIterator<FrameScores, ScoreSummary, undefined> {
  readonly result: Promise<ScoreSummary>;
}

/** Scores a distorted video against its reference (see ScoreRun); starts at once. */
export function score(request: ScoreRequest, events: ScoreEvents = {}): ScoreRun {
  const queue = new FrameQueue<FrameScores, ScoreSummary>();
  const result = runScoring(request, events, (f) => queue.push(f)).then(
    (summary) => {
      queue.finish(summary);
      return summary;
    },
    (e: unknown) => {
      queue.fail(e);
      throw e;
    },
  );
  // The failure reaches whoever iterates or awaits `result`; an unread `result` is not an unhandled rejection.
  result.catch(() => {});
  return Object.assign(queue.iterator(), { result });
}

/** What a run computes: its models, and the feature extractors (the models' first, as libvmaf registers them). */
export interface RunPlan {
  models: LoadedModel[];
  features: ResolvedFeature[];
}

export async function planRun(r: Pick<ParsedScoreRequest, "noPrediction" | "models" | "features">): Promise<RunPlan> {
  const models = r.noPrediction ? [] : await loadModels(r.models);
  const requests: FeatureRequest[] = [
    ...modelFeatureRequests(models),
    ...r.features.map((f) => (typeof f === "string" ? parseFeatureString(f) : { name: f.name, options: Object.fromEntries(Object.entries(f.options).map(([k, v]) => [k, String(v)])) })),
  ];
  const features = await resolveFeatures(requests);
  if (!features.length) throw new VqError("nothing to compute: give at least one entry in features, or a model");
  return { models, features };
}

/** Every feature key the plan's extractors write per frame, for pictures of `format`. */
export function expectedFeatures(plan: RunPlan, format: PictureFormat): string[] {
  return plan.features.flatMap((f) => f.entry.definition.providedFeatures(f.options, format));
}

/** Frames to score when the inputs tell their lengths (else `frameCount`, which may be unknown too). */
export function frameTotal(lengths: readonly (number | undefined)[], frameCount?: number): number | undefined {
  return lengths.every((n) => n !== undefined) ? Math.min(...(lengths as number[]), frameCount ?? Infinity) : frameCount;
}

/** Whether every file among `inputs` opens (one that does not is named by its reader, as always). */
async function filesOpen(inputs: readonly (string | VideoReader)[]): Promise<boolean> {
  for (const input of inputs) {
    if (typeof input !== "string" || isStreamInput(input)) continue;
    try {
      await (await openFileSource(input)).close();
    } catch {
      return false;
    }
  }
  return true;
}

async function runScoring(request: ScoreRequest, events: ScoreEvents, emit: (frame: FrameScores) => void): Promise<ScoreSummary> {
  const r = parseRequest(scoreRequestSchema, request);
  const plan = await planRun(r);
  const { models, features } = plan;
  const readers: VideoReader[] = [];
  // Dawn's device is made while ffmpeg starts decoding the inputs (a GPU failure is told after
  // theirs), once both files open: a missing one is then a single line, with no GPU notice before it
  const decoded = [r.reference, r.distorted].some((s) => typeof s === "string" && !isStreamInput(s) && needsFfmpeg(s));
  const gpu = r.backend !== "cpu" && decoded && (await filesOpen([r.reference, r.distorted])) ? sharedGpu() : undefined;
  gpu?.catch(() => {});
  try {
    const lumaOnly = readsLumaOnly(r, plan, [r.reference, r.distorted]);
    const openRef = () => openInput(r.reference, r.raw, decoding(r, lumaOnly));
    const openDist = () => openDistorted(r.distorted, r, readers[0]!.format, lumaOnly);
    // both decoders start at once, unless the distorted one is scaled to the reference's size
    const distOpening = r.scaleDistorted ? undefined : openDistorted(r.distorted, r, undefined, lumaOnly);
    // its failure is told once the reference has opened (a reference at fault is named first)
    distOpening?.catch(() => {});
    try {
      readers.push(await openRef());
    } catch (e) {
      distOpening?.then((d) => d.close()).catch(() => {});
      throw e;
    }
    const reopen = { reference: typeof r.reference === "string" ? openRef : undefined, distorted: typeof r.distorted === "string" ? openDist : undefined };
    const prepared = await prepareDistorted(readers[0]!, await (distOpening ?? openDist()), reopen, { conform: r.conform ? { scaler: r.scaler } : undefined, align: r.align, skipRef: r.skipRef, skipDist: r.skipDist, ffmpeg: decoding(r) }, events.onNote);
    readers.push(prepared.reader);
    const { skipRef, skipDist } = prepared;
    const [ref, dist] = readers as [VideoReader, VideoReader];
    for (const f of features) f.entry.definition.checkFormat?.(f.options, ref.format);
    const { backend, gpuBackend, notes } = await chooseBackend(r.backend, features, { subsample: r.subsample, threads: r.threads, profileGpu: r.profileGpu, selfTest: r.gpuSelfTest ? {} : false, acquire: gpu && (() => gpu) });
    for (const n of notes) events.onNote?.(n);
    const total = frameTotal([ref.frameCount === undefined ? undefined : ref.frameCount - skipRef, dist.frameCount === undefined ? undefined : dist.frameCount - skipDist], r.frameCount);
    const expected = expectedFeatures(plan, ref.format);
    const output = new RunOutput(models, expected, r.subsample, r.pool, emit);
    const repeated = new RepeatedFrames(ref, [dist]);
    const collector = new FeatureCollector();
    let progress = 0;
    const options = {
      frameCount: r.frameCount,
      skipRef,
      skipDist,
      strictLength: r.strictLength,
      // Only when backends finish at different times: otherwise features keep libvmaf's first-written order.
      featureOrder: backend instanceof CompositeBackend ? [...expected, ...modelScoreKeys(models)] : undefined,
      onWarning: sayOnce(events.onNote),
      onFrame: (n: number) => {
        // a run resumed after a lost GPU goes over frames it had scheduled already
        if (n > progress) events.onProgress?.((progress = n), total);
        output.handOut(collector, n, false);
      },
      collector,
    };
    let result: ScoreResult;
    let backendName = backend.name;
    try {
      result = await scoreVideos(repeated.ref, repeated.dists[0]!, backend, options);
    } catch (e) {
      const loss = gpuBackend && (await deviceLoss(gpuBackend.gpu, e));
      if (!loss) throw e;
      const reopen = async (lost: string): Promise<[VideoReader, VideoReader]> => {
        // each into `readers` once open, so that a failure to open the other closes it
        readers.push(await rereadable(r.reference, openRef, lost));
        readers.push(await rereadable(r.distorted, prepared.reopen, lost));
        const watched = repeated.rewatch(readers.at(-2)!, [readers.at(-1)!]);
        return [watched.ref, watched.dists[0]!];
      };
      const resumed = await resumeOnCpu(loss, { features, format: ref.format, subsample: r.subsample, threads: r.threads, options, reopen, onNote: events.onNote });
      result = resumed;
      backendName = `${backend.name}, then cpu from frame ${resumed.resumedAt} (GPU device lost)`;
    }
    // A rate raised by conform repeats frames by design.
    const repeats = changesRate(prepared.filters) ? undefined : repeated.warning(0, skipRef, skipDist, result.frames);
    if (repeats) events.onNote?.(repeats);
    return {
      ...output.summary(collector, result.frames, result.format, backendName),
      gpuTimeNs: r.profileGpu && gpuBackend ? Object.fromEntries(gpuBackend.runner.gpuTimeNs) : undefined,
      gpuSpanNs: r.profileGpu && gpuBackend ? gpuBackend.runner.gpuSpanNs : undefined,
      alignment: prepared.alignment,
    };
  } finally {
    for (const reader of readers) await reader.close();
  }
}
