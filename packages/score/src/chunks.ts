import { CompositeBackend, FeatureCollector, ResumedCollector, scoreVideos, VqError, warmUpStart, type ExtractorDefinition, type OptionValues, type PictureFormat, type VideoReader } from "@vq/core";
import { checkModelKeys, modelScoreKeys, scoreModelsAtFrame } from "@vq/model";
import { chooseBackend } from "./backend.ts";
import { prepareDistorted, type DistortedInput } from "./distorted-input.ts";
import { RunOutput } from "./run-output.ts";
import { decoding, expectedFeatures, frameTotal, openDistorted, openInput, parseRequest, planRun, readsLumaOnly, scoreRequestSchema, type ParsedScoreRequest, type ScoreRequest, type ScoreSummary } from "./score.ts";

/** Frames [start, end) of a run; `last` when the run ends at `end` (its temporal extractors' last frame). */
export interface FrameRange {
  start: number;
  end: number;
  last: boolean;
}

/** The ranges of `chunkFrames` frames that cover a run of `frames` frames. */
export function planChunks(frames: number, chunkFrames: number): FrameRange[] {
  if (!Number.isInteger(chunkFrames) || chunkFrames < 1) throw new VqError(`chunk frames: expected a positive integer, got ${chunkFrames}`);
  const ranges: FrameRange[] = [];
  for (let start = 0; start < frames; start += chunkFrames) ranges.push({ start, end: Math.min(frames, start + chunkFrames), last: start + chunkFrames >= frames });
  return ranges;
}

/** A score as JSON carries it: non-finite values (psnr of identical frames) as strings, a frame without one as null. */
export type ChunkValue = number | "Infinity" | "-Infinity" | "NaN" | null;

/** What a chunk scored: every feature of frames [start, end), exactly as a whole run scores them. */
export interface ChunkScores {
  range: FrameRange;
  /** The first frame the chunk computed (its extractors' warm-up started there). */
  warmUpFrom: number;
  /** Feature names in the order the run writes them, the models' scores last. */
  names: string[];
  /** Per name, frames start .. end - 1 (the models' scores too: each frame's needs only that frame's features). */
  values: Record<string, ChunkValue[]>;
  /** Whole-run values (psnr's APSNR): only a chunk computed from frame 0 has them right. */
  aggregates: Record<string, ChunkValue>;
  format: PictureFormat;
  backend: string;
}

const toJson = (v: number | undefined): ChunkValue => (v === undefined ? null : Number.isFinite(v) ? v : (String(v) as ChunkValue));
const fromJson = (v: ChunkValue): number | undefined => (v === null ? undefined : Number(v));

/**
 * Frames past a chunk that its temporal extractors may read for the chunk's last frames: as
 * many as their warm-up (a whole-run aggregate's "from frame 0" is no look-ahead), at least one.
 */
function lookAhead(extractors: readonly { definition: ExtractorDefinition<any>; options: OptionValues<any> }[]): number {
  const frames = extractors.map(({ definition, options }) => (definition.temporal ? (definition.warmUpFrames?.(options) ?? 1) : 0));
  return Math.max(1, ...frames.filter(Number.isFinite));
}

/**
 * Scores frames [start, end) of a run as the whole run would: the extractors start the
 * frames before `start` their warm-up needs (ExtractorDefinition.warmUpFrames; frame 0 for a
 * whole-run aggregate) and, unless the run ends at `end`, read the frames past it that its
 * last frames' scores need (motion2: one; the five-frame window: frame 0's motion3 reads frame
 * 2). What they write outside the range is dropped. Design: ADR 0038.
 */
export async function scoreChunk(request: ScoreRequest, range: FrameRange): Promise<ChunkScores> {
  const r = parseRequest(scoreRequestSchema, request);
  if (r.align) throw new VqError("a chunk is a frame range of a run whose frame skips are known: find the offset (--align auto) before splitting the run");
  if (!(Number.isInteger(range.start) && Number.isInteger(range.end) && range.start >= 0 && range.end > range.start)) throw new VqError(`chunk: frames ${range.start} to ${range.end} are not a range`);
  const plan = await planRun(r);
  const readers: VideoReader[] = [];
  try {
    const { ref, prepared } = await openRunInputs(r, readers, readsLumaOnly(r, plan, [r.reference, r.distorted]));
    for (const f of plan.features) f.entry.definition.checkFormat?.(f.options, ref.format);
    const { backend } = await chooseBackend(r.backend, plan.features, { subsample: r.subsample, threads: r.threads, selfTest: r.gpuSelfTest ? {} : false });
    const extractors = plan.features.map((f) => ({ definition: f.entry.definition, options: f.options }));
    const warmUpFrom = warmUpStart(range.start, extractors);
    // at least one frame past the chunk, where the run goes on (the run may end within the look-ahead)
    const needs = range.last ? range.end : range.end + 1;
    if (r.frameCount !== undefined && needs > r.frameCount) throw new VqError(`chunk: frames ${range.start} to ${range.end} go past the run's ${r.frameCount} frames`);
    const reads = range.last ? range.end : Math.min(range.end + lookAhead(extractors), r.frameCount ?? Infinity);
    const scored = new FeatureCollector();
    const expected = expectedFeatures(plan, ref.format);
    const result = await scoreVideos(ref, prepared.reader, backend, {
      frameCount: reads,
      skipRef: prepared.skipRef,
      skipDist: prepared.skipDist,
      firstFrame: warmUpFrom,
      // as a whole run orders them (backends finishing at different times)
      featureOrder: backend instanceof CompositeBackend ? expected : undefined,
      collector: new ResumedCollector(scored, range.start),
    });
    if (result.frames < needs) throw new VqError(`chunk: the inputs end after ${result.frames} frames, before the chunk's frames ${range.start} to ${range.end}${range.last ? "" : " and the one after"}`);
    scored.discardFrom(range.end);
    // the models here, in parallel over the chunks, not in the merge: per frame exactly what a whole run computes
    checkModelKeys(plan.models, scored);
    for (let i = range.start; i < range.end; i++) if (r.subsample <= 1 || i % r.subsample === 0) scoreModelsAtFrame(plan.models, scored, i);
    const names = scored.names();
    const values: Record<string, ChunkValue[]> = {};
    for (const name of names) values[name] = Array.from({ length: range.end - range.start }, (_, i) => toJson(scored.get(name, range.start + i)));
    const aggregates = Object.fromEntries(scored.aggregateEntries().map(([k, v]) => [k, toJson(v)]));
    return { range, warmUpFrom, names, values, aggregates, format: result.format, backend: backend.name };
  } finally {
    for (const reader of readers) await reader.close();
  }
}

/**
 * A run's summary from its chunks (in any order): the features and model scores of every
 * frame, then the pooling over all of them, as `score` gives for the whole run (the models
 * are scored here only when a chunk lacks them: one from an older vq). The chunks
 * must cover frames 0 to the run's end without a gap; a whole-run aggregate is taken from
 * the last chunk, which computed it over every frame (its warm-up starts at frame 0).
 */
export async function mergeChunks(request: ScoreRequest, chunks: readonly ChunkScores[]): Promise<ScoreSummary> {
  const r = parseRequest(scoreRequestSchema, request);
  const sorted = [...chunks].sort((a, b) => a.range.start - b.range.start);
  let next = 0;
  for (const c of sorted) {
    if (c.range.start !== next) throw new VqError(`chunks: frames ${next} to ${c.range.start} are missing (or scored twice)`);
    next = c.range.end;
  }
  const last = sorted.at(-1);
  if (!last?.range.last) throw new VqError(`chunks: the run's last chunk (its end) is missing`);
  const plan = await planRun(r);
  const modelKeys = modelScoreKeys(plan.models);
  const modelsScored = sorted.every((c) => modelKeys.every((k) => k in c.values));
  const collector = new FeatureCollector();
  for (const name of sorted[0]!.names) if (modelsScored || !modelKeys.includes(name)) collector.reserve(name);
  for (const c of sorted) {
    for (const [name, values] of Object.entries(c.values)) {
      if (!modelsScored && modelKeys.includes(name)) continue;
      values.forEach((v, i) => {
        const score = fromJson(v);
        if (score !== undefined) collector.append(name, c.range.start + i, score);
      });
    }
  }
  const aggregates = Object.entries(last.aggregates);
  if (aggregates.length && last.warmUpFrom !== 0) throw new VqError(`chunks: ${aggregates[0]![0]} is computed over the whole run, and the last chunk did not start at frame 0`);
  for (const [name, v] of aggregates) collector.setAggregate(name, fromJson(v)!);
  const output = new RunOutput(modelsScored ? [] : plan.models, expectedFeatures(plan, last.format), r.subsample, r.pool);
  const backends = [...new Set(sorted.map((c) => c.backend))].join(", ");
  return output.summary(collector, next, last.format, sorted.length > 1 ? `${backends} (${sorted.length} chunks)` : backends);
}

/**
 * How many frames a run will score, from its inputs' lengths (after the frame skips, within
 * its frame count), for splitting it into chunks; undefined when an input does not tell
 * (a stream, an ffmpeg input without ffprobe beside ffmpeg).
 */
export async function runLength(request: ScoreRequest): Promise<number | undefined> {
  const r = parseRequest(scoreRequestSchema, request);
  const readers: VideoReader[] = [];
  try {
    const { ref, prepared } = await openRunInputs(r, readers);
    const dist = prepared.reader;
    return frameTotal([ref.frameCount === undefined ? undefined : ref.frameCount - prepared.skipRef, dist.frameCount === undefined ? undefined : dist.frameCount - prepared.skipDist], r.frameCount);
  } finally {
    for (const reader of readers) await reader.close();
  }
}

/** A run's inputs opened as `score` opens them (conformed, with its frame skips), each pushed on `readers` to be closed. */
async function openRunInputs(r: ParsedScoreRequest, readers: VideoReader[], lumaOnly = false): Promise<{ ref: VideoReader; prepared: DistortedInput }> {
  const ref = await openInput(r.reference, r.raw, decoding(r, lumaOnly));
  readers.push(ref);
  const prepared = await prepareDistorted(ref, await openDistorted(r.distorted, r, ref.format, lumaOnly), {}, { conform: r.conform ? { scaler: r.scaler } : undefined, skipRef: r.skipRef, skipDist: r.skipDist, ffmpeg: decoding(r) });
  readers.push(prepared.reader);
  return { ref, prepared };
}
