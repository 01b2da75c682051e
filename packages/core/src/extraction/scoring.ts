import { VqError } from "../errors.ts";
import { asAllocationError } from "../limits.ts";
import type { FeatureExtractor, PicturePair } from "./extractor.ts";
import { FeatureCollector } from "./feature-collector.ts";
import { describeFormat, type PictureFormat } from "../picture.ts";
import type { FrameFile, VideoReader } from "../readers/video-reader.ts";
import type { FrameSpan, SpanInputs } from "./worker-protocol.ts";

/** Runs a set of extractors on frames: on the CPU, or on the GPU with one upload per frame. */
export interface ExtractionBackend {
  readonly name: string;
  /** `frames`: how many frames will come, when known (a backend may size its buffers by it). */
  init(format: PictureFormat, frames?: number): Promise<void>;
  /** Schedules one frame; resolves once the pictures may be reused. */
  extract(pair: PicturePair, index: number, collector: FeatureCollector): Promise<void>;
  /**
   * Schedules one frame read straight from the files (no Picture): for backends that
   * upload, so the bytes go from the file to the upload buffer in one copy. Resolves once
   * the next frame may be scheduled; the reads may still be under way.
   */
  extractFromFiles?(ref: FrameRead, dist: FrameRead, index: number, collector: FeatureCollector): Promise<void>;
  /**
   * Backends whose workers read the frames themselves from regular files: the spans of
   * frames [first, frames) to hand to extractSpan, or undefined when this run cannot
   * (then frames come through extract). A plan given switches the backend to spans.
   */
  planSpans?(files: SpanInputs, first: number, frames: number): FrameSpan[] | undefined;
  /** Schedules one span of planSpans; resolves once the next may be scheduled. */
  extractSpan?(span: FrameSpan, collector: FeatureCollector): Promise<void>;
  /** Waits for every frame scheduled, then lets temporal extractors finish. */
  flush(collector: FeatureCollector): Promise<void>;
  close(): Promise<void>;
}

/** Frame `index` of a frame file. */
export interface FrameRead {
  readonly file: FrameFile;
  readonly index: number;
}

export class CpuBackend implements ExtractionBackend {
  readonly name = "cpu";
  /**
   * @param subsample libvmaf's --subsample: extractors that are not temporal skip frames
   *   whose index is not a multiple of it (temporal ones need every frame).
   */
  constructor(private readonly extractors: readonly FeatureExtractor<PicturePair>[], private readonly subsample = 1) {}

  async init(format: PictureFormat): Promise<void> {
    for (const e of this.extractors) await e.init(format);
  }

  async extract(pair: PicturePair, index: number, collector: FeatureCollector): Promise<void> {
    const skip = this.subsample > 1 && index % this.subsample !== 0;
    for (const e of this.extractors) if (!skip || e.definition.temporal) await e.extract(pair, index, collector);
  }

  async flush(collector: FeatureCollector): Promise<void> {
    for (const e of this.extractors) await e.flush(collector);
  }

  async close(): Promise<void> {
    for (const e of this.extractors) await e.close();
  }
}

export interface ScoreOptions {
  /** Stop after this many frames (libvmaf's --frame_cnt). */
  frameCount?: number;
  /** Frames to drop from the start of each input (libvmaf's --frame_skip_ref / _dist). */
  skipRef?: number;
  skipDist?: number;
  /** Output names in the order they should be written (extractor order). */
  featureOrder?: readonly string[];
  /** Called after each frame is scheduled (progress); the collector holds what is scored so far. */
  onFrame?: (framesDone: number, collector: FeatureCollector) => void;
  /** Said when the inputs have different lengths (the common prefix is scored). */
  onWarning?: (message: string) => void;
  /** Different lengths (after the skips, within frameCount) are an error instead (--strict-length). */
  strictLength?: boolean;
  /** The first frame to score (after the skips; the frames before are read and dropped): a run resumed mid-way. */
  firstFrame?: number;
  /** Where the scores go (a run's own collector, kept when it fails); by default a new one. */
  collector?: FeatureCollector;
}

/** The error of --strict-length for inputs of different lengths. */
export function lengthMismatchError(ended: string, other: string, frames: number): VqError {
  return new VqError(`${ended} ended before ${other} (${frames} frames in common) and --strict-length asks for equal lengths`);
}

/** The warning for inputs of different lengths (the common part is scored). */
export function lengthMismatchWarning(ended: string, other: string, frames: number): string {
  return `${ended} ended before ${other}: scored the first ${frames} frames`;
}

/** Inputs of different lengths: a warning, or the error of --strict-length. */
function differentLengths(ended: string, other: string, frames: number, options: ScoreOptions): void {
  if (options.strictLength) throw lengthMismatchError(ended, other, frames);
  options.onWarning?.(lengthMismatchWarning(ended, other, frames));
}

export interface ScoreResult {
  collector: FeatureCollector;
  frames: number;
  format: PictureFormat;
}

/** What differs between two picture formats that scoring needs equal: size, bit depth, chroma subsampling. */
export function formatDifferences(a: PictureFormat, b: PictureFormat): string[] {
  const problems: string[] = [];
  if (a.width !== b.width || a.height !== b.height) problems.push(`sizes differ: ${a.width}x${a.height} vs ${b.width}x${b.height}`);
  if (a.bitDepth !== b.bitDepth) problems.push(`bit depths differ: ${a.bitDepth} vs ${b.bitDepth}`);
  if (a.pixelFormat !== b.pixelFormat) problems.push(`pixel formats differ: ${a.pixelFormat} vs ${b.pixelFormat}`);
  return problems;
}

export function checkCompatible(ref: VideoReader, dist: VideoReader): void {
  const a = ref.format;
  const b = dist.format;
  const problems = formatDifferences(a, b);
  if (problems.length) {
    throw new VqError(`reference ${ref.name} (${describeFormat(a)}) and distorted ${dist.name} (${describeFormat(b)}) do not match: ${problems.join("; ")}`);
  }
}

/**
 * Reads both inputs in lockstep and feeds every frame pair to the backend. Data flows
 * one way: readers -> pictures -> backend (extractors) -> collector.
 */
export async function scoreVideos(ref: VideoReader, dist: VideoReader, backend: ExtractionBackend, options: ScoreOptions = {}): Promise<ScoreResult> {
  try {
    return await scorePair(ref, dist, backend, options);
  } catch (e) {
    // Buffers sized by the pictures (extractors' init, frame buffers) that do not fit: the input's fault.
    throw asAllocationError(e, `${ref.name} and ${dist.name} (${describeFormat(ref.format)})`);
  }
}

async function scorePair(ref: VideoReader, dist: VideoReader, backend: ExtractionBackend, options: ScoreOptions): Promise<ScoreResult> {
  checkCompatible(ref, dist);
  const collector = options.collector ?? new FeatureCollector();
  const first = options.firstFrame ?? 0;
  for (const name of options.featureOrder ?? []) collector.reserve(name);
  const refFile = ref.frameFile;
  const distFile = dist.frameFile;
  if (backend.extractFromFiles && refFile && distFile) return scoreFrameFiles(ref.format, refFile, distFile, backend, collector, options);
  if (backend.planSpans && refFile?.source && distFile?.source) {
    const spanned = await scoreFileSpans(ref.format, refFile, distFile, backend, collector, options);
    if (spanned) return spanned;
  }
  await skipFrames(ref, (options.skipRef ?? 0) + first);
  await skipFrames(dist, (options.skipDist ?? 0) + first);
  let index = first;
  let failed = true;
  try {
    // Inside the try: a backend that fails to start (a worker refusing its options) still
    // closes, so no worker thread keeps the process alive.
    const toCome = framesToCome(ref, dist, options);
    await backend.init(ref.format, toCome === undefined ? undefined : Math.max(0, toCome - first));
    for (;;) {
      if (options.frameCount !== undefined && index >= options.frameCount) break;
      const [r, d] = await Promise.all([ref.read(), dist.read()]);
      if (!r || !d) {
        if (r) ref.release(r);
        if (d) dist.release(d);
        if (r || d) {
          const [ended, other] = r ? [dist.name, ref.name] : [ref.name, dist.name];
          differentLengths(ended, other, index, options);
        }
        break;
      }
      await backend.extract({ ref: r, dist: d }, index, collector);
      ref.release(r);
      dist.release(d);
      index++;
      options.onFrame?.(index, collector);
    }
    if (index === 0) throw new VqError(`no frames to score: ${ref.name} or ${dist.name} has zero frames`);
    await backend.flush(collector);
    failed = false;
  } finally {
    // On failure the first error is the one to report, not a later one from closing.
    await (failed ? backend.close().catch(() => {}) : backend.close());
  }
  return { collector, frames: index, format: ref.format };
}

/** How many frame pairs the loop will score, when both inputs know their length (files, not streams). */
function framesToCome(ref: VideoReader, dist: VideoReader, options: ScoreOptions): number | undefined {
  if (ref.frameCount === undefined || dist.frameCount === undefined) return options.frameCount;
  const left = Math.min(ref.frameCount - (options.skipRef ?? 0), dist.frameCount - (options.skipDist ?? 0));
  return Math.max(0, Math.min(left, options.frameCount ?? Infinity));
}

/**
 * scoreVideos for a backend that reads frames itself, by position: the frame count comes
 * from the files, skips are offsets, and several frames' reads can be in flight at once.
 */
async function scoreFrameFiles(format: PictureFormat, ref: FrameFile, dist: FrameFile, backend: ExtractionBackend, collector: FeatureCollector, options: ScoreOptions): Promise<ScoreResult> {
  const { frames, first, skipRef, skipDist } = fileFrames(ref, dist, options);
  let failed = true;
  try {
    await backend.init(format, frames - first);
    for (let index = first; index < frames; index++) {
      await backend.extractFromFiles!({ file: ref, index: skipRef + index }, { file: dist, index: skipDist + index }, index, collector);
      options.onFrame?.(index + 1, collector);
    }
    await backend.flush(collector);
    failed = false;
  } finally {
    await (failed ? backend.close().catch(() => {}) : backend.close());
  }
  return { collector, frames, format };
}

/**
 * scoreVideos for a backend whose workers read their frames from the files themselves, a
 * span of frames each (adr/0041-threads-read-their-frames.md): the main thread only hands
 * out spans and applies their scores. Undefined when the backend cannot take this run in spans.
 */
async function scoreFileSpans(format: PictureFormat, ref: FrameFile, dist: FrameFile, backend: ExtractionBackend, collector: FeatureCollector, options: ScoreOptions): Promise<ScoreResult | undefined> {
  const { frames, first, skipRef, skipDist } = fileFrames(ref, dist, options);
  const files: SpanInputs = { ref: ref.source!, dist: dist.source!, refName: ref.name, distName: dist.name, skipRef, skipDist, first, end: frames };
  const spans = backend.planSpans!(files, first, frames);
  if (!spans) return undefined;
  let failed = true;
  try {
    await backend.init(format, frames - first);
    for (const span of spans) {
      // a wrapper that looks at every frame read (repeated frames) takes its look
      for (let i = span.start; i < span.end; i++) await Promise.all([ref.readElsewhere?.(skipRef + i), dist.readElsewhere?.(skipDist + i)]);
      await backend.extractSpan!(span, collector);
      options.onFrame?.(span.end, collector);
    }
    await backend.flush(collector);
    failed = false;
  } finally {
    await (failed ? backend.close().catch(() => {}) : backend.close());
  }
  return { collector, frames, format };
}

/** The frames a run over two frame files scores (after the skips, within the frame count), and the length warning or error. */
function fileFrames(ref: FrameFile, dist: FrameFile, options: ScoreOptions): { frames: number; first: number; skipRef: number; skipDist: number } {
  const skipRef = options.skipRef ?? 0;
  const skipDist = options.skipDist ?? 0;
  if (skipRef > ref.frameCount) throw new VqError(`${ref.name}: skipping ${skipRef} frames goes past its end (${ref.frameCount} frames)`);
  if (skipDist > dist.frameCount) throw new VqError(`${dist.name}: skipping ${skipDist} frames goes past its end (${dist.frameCount} frames)`);
  const refFrames = ref.frameCount - skipRef;
  const distFrames = dist.frameCount - skipDist;
  const frames = Math.min(refFrames, distFrames, options.frameCount ?? Infinity);
  if (frames === 0) throw new VqError(`no frames to score: ${ref.name} or ${dist.name} has zero frames`);
  const first = Math.min(options.firstFrame ?? 0, frames);
  if (refFrames !== distFrames && (options.frameCount ?? Infinity) > frames) {
    const [ended, other] = refFrames < distFrames ? [ref.name, dist.name] : [dist.name, ref.name];
    differentLengths(ended, other, frames, options);
  }
  return { frames, first, skipRef, skipDist };
}

/**
 * Several backends over the same frames, e.g. the GPU for the features that have a GPU
 * twin and the CPU for the rest. Each backend writes its own features.
 */
export class CompositeBackend implements ExtractionBackend {
  readonly name: string;
  constructor(private readonly backends: readonly ExtractionBackend[]) {
    this.name = backends.map((b) => b.name).join("+");
  }

  async init(format: PictureFormat, frames?: number): Promise<void> {
    for (const b of this.backends) await b.init(format, frames);
  }

  async extract(pair: PicturePair, index: number, collector: FeatureCollector): Promise<void> {
    await Promise.all(this.backends.map((b) => b.extract(pair, index, collector)));
  }

  async flush(collector: FeatureCollector): Promise<void> {
    for (const b of this.backends) await b.flush(collector);
  }

  async close(): Promise<void> {
    for (const b of this.backends) await b.close();
  }
}

/** Reads and drops the first `count` frames (libvmaf's --frame_skip_ref / _dist). */
export async function skipFrames(reader: VideoReader, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const p = await reader.read();
    if (!p) throw new VqError(`${reader.name}: skipping ${count} frames goes past its end (${i} frames)`);
    reader.release(p);
  }
}
