import { z } from "zod";
import { CompositeBackend, needsFfmpeg, openWithFfmpeg, poolFeature, type FfmpegOptions, RawYuvReader, scoreVideos, VqError, Y4mReader, type FeatureCollector, type PixelFormat, type PooledScore, type VideoReader } from "@vq/core";
import { checkModelKeys, modelScoreKeys, scoreModelsAtFrame } from "@vq/model";
import { chooseBackend } from "./backend.ts";
import { parseFeatureArgument } from "./args.ts";
import { resolveFeatures } from "./features.ts";
import { loadModels, modelFeatureRequests } from "./models.ts";

const optionValue = z.union([z.string(), z.number(), z.boolean()]);
const input = z.union([z.string().min(1), z.custom<VideoReader>((v) => typeof (v as VideoReader)?.read === "function", "a path or a VideoReader")]);

/** What `score` takes; the CLI builds the same request from libvmaf's arguments. */
export const scoreRequestSchema = z.strictObject({
  reference: input,
  distorted: input,
  /** Needed for raw .yuv paths. */
  raw: z.strictObject({ width: z.number().int().positive(), height: z.number().int().positive(), pixelFormat: z.enum(["420", "422", "444", "400"]), bitDepth: z.number().int().min(8).max(16) }).optional(),
  /** Feature extractors: libvmaf's `name=opt=val:...` strings or { name, options }. */
  features: z.array(z.union([z.string(), z.strictObject({ name: z.string(), options: z.record(z.string(), optionValue).default({}) })])).default([]),
  /** Models in libvmaf's --model syntax; none given and prediction on = vmaf_v0.6.1. */
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

function parseRequest(request: ScoreRequest) {
  const r = scoreRequestSchema.safeParse(request);
  if (!r.success) {
    const i = r.error.issues[0]!;
    throw new VqError(`score options: ${i.path.join(".") || "(root)"}: ${i.message}`);
  }
  return r.data;
}

/**
 * Scores a distorted video against its reference: yields each frame's scores (features
 * and model scores, libvmaf's key names) as soon as the frame is complete, and returns
 * the pooled scores at the end.
 */
export async function* score(request: ScoreRequest, events: ScoreEvents = {}): AsyncGenerator<FrameScores, ScoreSummary, undefined> {
  const r = parseRequest(request);
  const models = r.noPrediction ? [] : await loadModels(r.models);
  const featureRequests = [
    ...modelFeatureRequests(models),
    ...r.features.map((f) => (typeof f === "string" ? parseFeatureArgument(f) : { name: f.name, options: Object.fromEntries(Object.entries(f.options).map(([k, v]) => [k, String(v)])) })),
  ];
  const features = await resolveFeatures(featureRequests);
  if (!features.length) throw new VqError("nothing to compute: give at least one feature or a model");
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

    // Frames complete as extraction goes on; they are handed out in order from this queue.
    const ready: FrameScores[] = [];
    let wake: (() => void) | undefined;
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
        ready.push({ frameNum: i, metrics: Object.fromEntries(c.frame(i)) });
        next++;
      }
      wake?.();
    };
    const run = scoreVideos(ref, dist, backend, {
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
    let done: Awaited<typeof run> | undefined;
    let failure: unknown;
    run.then(
      (result) => {
        done = result;
        emitComplete(result.collector, result.frames, true);
      },
      (e) => {
        failure = e;
        wake?.();
      },
    );
    for (;;) {
      while (ready.length) yield ready.shift()!;
      if (failure) throw failure;
      if (done) break;
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
    while (ready.length) yield ready.shift()!;
    const result = done!;
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
