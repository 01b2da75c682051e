import { z } from "zod";
import { CompositeBackend, needsFfmpeg, openWithFfmpeg, poolFeature, type FfmpegOptions, RawYuvReader, scoreVideos, VqError, Y4mReader, type FeatureCollector, type PixelFormat, type PooledScore, type VideoReader } from "@vq/core";
import { checkModelKeys, modelScoreKeys, scoreModelsAtFrame } from "@vq/model";
import { chooseBackend } from "./backend.ts";
import { parseFeatureString, type FeatureRequest } from "./feature-request.ts";
import { resolveFeatures } from "./features.ts";
import { loadModels, modelFeatureRequests } from "./models.ts";
import { FrameQueue } from "./frame-queue.ts";

const optionValue = z.union([z.string(), z.number(), z.boolean()]);
const input = z.union([z.string().min(1), z.custom<VideoReader>((v) => typeof (v as VideoReader)?.read === "function", "a path or a VideoReader")]);

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
  threads: z.number().int().min(1).max(256).default(1),
  subsample: z.number().int().min(1).default(1),
  frameCount: z.number().int().min(1).optional(),
  skipRef: z.number().int().min(0).default(0),
  skipDist: z.number().int().min(0).default(0),
  /** The ffmpeg binary used for inputs other than Y4M and raw YUV. */
  ffmpeg: z.string().min(1).optional(),
  /** Scale the distorted video to the reference's size (through ffmpeg, bicubic). */
  scaleDistorted: z.boolean().default(false),
  /** Time every GPU kernel pass with timestamp queries (ScoreSummary.gpuTimeNs). */
  profileGpu: z.boolean().default(false),
});
export type ScoreRequest = z.input<typeof scoreRequestSchema>;

export interface FrameScores {
  frameNum: number;
  metrics: Record<string, number>;
}

export interface ScoreSummary {
  frames: number;
  pooled: Record<string, PooledScore>;
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
}

export interface ScoreEvents {
  /** Progress: frames read and scheduled so far, and the total when the inputs tell it. */
  onProgress?: (framesDone: number, total?: number) => void;
  /** Things the user should know (CPU fallback, inputs of different length). */
  onNote?: (message: string) => void;
}

async function open(source: string | VideoReader, raw: z.infer<typeof scoreRequestSchema>["raw"], ffmpeg: FfmpegOptions): Promise<VideoReader> {
  if (typeof source !== "string") return source;
  if (ffmpeg.scaleTo || needsFfmpeg(source)) return openWithFfmpeg(source, ffmpeg);
  if (raw) return RawYuvReader.open(source, { ...raw, pixelFormat: raw.pixelFormat as PixelFormat });
  if (/\.yuv$/i.test(source)) throw new VqError(`${source}: raw YUV input needs its width, height, pixel format and bit depth`);
  return Y4mReader.open(source);
}

function parseRequest(request: ScoreRequest): z.infer<typeof scoreRequestSchema> {
  const r = scoreRequestSchema.safeParse(request);
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

/** Request → feature requests: the models' first (libvmaf registers them before --feature ones), then the request's own. */
function featureRequests(r: z.infer<typeof scoreRequestSchema>, models: Awaited<ReturnType<typeof loadModels>>): FeatureRequest[] {
  return [
    ...modelFeatureRequests(models),
    ...r.features.map((f) => (typeof f === "string" ? parseFeatureString(f) : { name: f.name, options: Object.fromEntries(Object.entries(f.options).map(([k, v]) => [k, String(v)])) })),
  ];
}

async function runScoring(request: ScoreRequest, events: ScoreEvents, emit: (frame: FrameScores) => void): Promise<ScoreSummary> {
  const r = parseRequest(request);
  const models = r.noPrediction ? [] : await loadModels(r.models);
  const features = await resolveFeatures(featureRequests(r, models));
  if (!features.length) throw new VqError("nothing to compute: give at least one entry in features, or a model");
  const readers: VideoReader[] = [];
  try {
    readers.push(await open(r.reference, r.raw, { ffmpeg: r.ffmpeg }));
    const refSize = { width: readers[0]!.format.width, height: readers[0]!.format.height };
    readers.push(await open(r.distorted, r.raw, { ffmpeg: r.ffmpeg, scaleTo: r.scaleDistorted ? refSize : undefined }));
    const [ref, dist] = readers as [VideoReader, VideoReader];
    for (const f of features) f.entry.definition.checkFormat?.(f.options, ref.format);
    const { backend, gpuBackend, notes } = await chooseBackend(r.backend, features, { subsample: r.subsample, threads: r.threads, profileGpu: r.profileGpu });
    for (const n of notes) events.onNote?.(n);
    const lengths = [ref.frameCount === undefined ? undefined : ref.frameCount - r.skipRef, dist.frameCount === undefined ? undefined : dist.frameCount - r.skipDist];
    const total = lengths.every((n) => n !== undefined) ? Math.min(...(lengths as number[]), r.frameCount ?? Infinity) : r.frameCount;
    const expected = features.flatMap((f) => f.entry.definition.providedFeatures(f.options, ref.format));

    // Frames are handed out in order, each once every feature of it is scored.
    let next = 0;
    const emitComplete = (c: FeatureCollector, upTo: number, final: boolean) => {
      if (next === 0) checkModelKeys(models, c);
      while (next < upTo) {
        const i = next;
        if (r.subsample > 1 && i % r.subsample) {
          next++;
          continue;
        }
        if (!final && !expected.every((k) => c.has(k, i))) break;
        scoreModelsAtFrame(models, c, i);
        emit({ frameNum: i, metrics: Object.fromEntries(c.frame(i)) });
        next++;
      }
    };
    const result = await scoreVideos(ref, dist, backend, {
      frameCount: r.frameCount,
      skipRef: r.skipRef,
      skipDist: r.skipDist,
      // Only when backends finish at different times: otherwise features keep libvmaf's first-written order.
      featureOrder: backend instanceof CompositeBackend ? [...expected, ...modelScoreKeys(models)] : undefined,
      onWarning: events.onNote,
      onFrame: (n, c) => {
        events.onProgress?.(n, total);
        emitComplete(c, n, false);
      },
    });
    emitComplete(result.collector, result.frames, true);
    // Pooled once, here: the summary is all a caller needs.
    const pooled: Record<string, PooledScore> = {};
    for (const name of result.collector.names()) {
      const p = poolFeature(result.collector, name, result.frames, r.subsample);
      if (p) pooled[name] = p;
    }
    return {
      frames: result.frames,
      pooled,
      aggregate: Object.fromEntries(result.collector.aggregateEntries()),
      collector: result.collector,
      width: result.format.width,
      height: result.format.height,
      backend: backend.name,
      gpuTimeNs: r.profileGpu && gpuBackend ? Object.fromEntries(gpuBackend.runner.gpuTimeNs) : undefined,
      gpuSpanNs: r.profileGpu && gpuBackend ? gpuBackend.runner.gpuSpanNs : undefined,
    };
  } finally {
    for (const reader of readers) await reader.close();
  }
}
