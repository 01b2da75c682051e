// The worker's side of a threaded run whose workers read their own frames
// (adr/0041-threads-read-their-frames.md): a span of frames scored as a whole run scores
// them, its temporal extractors started afresh on the frames before it that their warm-up
// needs and shown the frames after it that their last scores need.
import { alignUp, packedLayout, Picture, type PictureFormat, type PlaneLayout } from "../picture.ts";
import { sharedFileSource } from "../readers/byte-source.ts";
import { positionalFrameFile } from "../readers/frame-file.ts";
import type { FrameFile, FrameFileSource } from "../readers/video-reader.ts";
import type { FeatureExtractor, PicturePair } from "./extractor.ts";
import { FeatureCollector } from "./feature-collector.ts";
import type { FrameSpan, RecordedWrite, SpanFiles, WorkerExtractorSpec } from "./worker-protocol.ts";

/**
 * Records the writes of frames [start, end) (and, from a span that ends the run, the
 * aggregates) in the order they are made; keeps every score too, as temporal extractors
 * read theirs back (motion2 from the motion scores).
 */
class SpanRecorder extends FeatureCollector {
  readonly writes: RecordedWrite[] = [];
  keepAggregates = false;
  constructor(private readonly start: number, private readonly end: number) {
    super();
  }
  override append(name: string, index: number, score: number): void {
    super.append(name, index, score);
    if (index >= this.start && index < this.end) this.writes.push(["score", name, index, score]);
  }
  override setAggregate(name: string, value: number): void {
    if (this.keepAggregates) this.writes.push(["aggregate", name, value]);
  }
}

/** One side's frames, read by position on the descriptor the main thread opened. */
interface Side {
  file: FrameFile;
  skip: number;
}

/** A frame pair's buffers (6 bytes of room for Y4M's marker before each) and the pictures over them. */
interface Slot {
  ref: Uint8Array;
  dist: Uint8Array;
  pair: PicturePair;
}

function frameBuffer(frameBytes: number): Uint8Array {
  return new Uint8Array(8 + alignUp(frameBytes, 4)).subarray(8);
}

/** A worker's files and extractors: scores the spans it is sent. */
export class SpanScorer {
  private constructor(
    private readonly files: SpanFiles,
    private readonly ref: Side,
    private readonly dist: Side,
    /** Two, so that the next frame is read while this one is scored. */
    private readonly slots: readonly Slot[],
    private readonly specs: readonly WorkerExtractorSpec[],
    /** The worker's extractors, in spec order: those that are not temporal serve every span. */
    private readonly extractors: readonly FeatureExtractor<PicturePair>[],
    private readonly create: (spec: WorkerExtractorSpec) => FeatureExtractor<PicturePair> | Promise<FeatureExtractor<PicturePair>>,
    private readonly format: PictureFormat,
  ) {}

  static open(files: SpanFiles, format: PictureFormat, specs: readonly WorkerExtractorSpec[], extractors: readonly FeatureExtractor<PicturePair>[], create: SpanScorer["create"]): SpanScorer {
    const layouts = packedLayout(format).planes;
    const side = (name: string, source: FrameFileSource, skip: number): Side => ({ file: positionalFrameFile(name, sharedFileSource(source.fd, name), source.layout)!, skip });
    const slots = [0, 1].map(() => {
      const ref = frameBuffer(files.ref.layout.frameBytes);
      const dist = frameBuffer(files.dist.layout.frameBytes);
      return { ref, dist, pair: { ref: new Picture(format, ref, layouts), dist: new Picture(format, dist, layouts) } };
    });
    return new SpanScorer(files, side(files.refName, files.ref, files.skipRef), side(files.distName, files.dist, files.skipDist), slots, specs, extractors, create, format);
  }

  /** Every write for the span's frames, frame by frame and extractor by extractor, as one thread makes them. */
  async score(span: FrameSpan): Promise<RecordedWrite[]> {
    const { first, subsample } = this.files;
    const recorder = new SpanRecorder(span.start, span.end);
    // Temporal extractors start afresh for each span, each at its own warm-up.
    const temporal = this.extractors.map((e) => e.definition.temporal);
    const from = this.specs.map((s, i) => (temporal[i] ? Math.max(first, span.start - (s.warmUp ?? 0)) : span.start));
    const fresh: (FeatureExtractor<PicturePair> | undefined)[] = await Promise.all(this.specs.map(async (s, i) => (temporal[i] ? this.create(s) : undefined)));
    try {
      for (const e of fresh) await e?.init(this.format);
      // Past the span unless the run ends with it: motion2 of its last frame needs the next
      // frame, and with the five-frame window motion3 of frame 0 needs frame 2. As many frames
      // as the warm-up (at least 1) covers both; what they write for later frames is dropped.
      const to = this.specs.map((s, i) => (temporal[i] && !span.last ? Math.min(this.files.end, span.end + Math.max(1, s.warmUp ?? 0)) : span.end));
      const readFrom = Math.min(...from);
      const readTo = Math.max(...to);
      const work: { frame: number; runs: boolean[] }[] = [];
      for (let f = readFrom; f < readTo; f++) {
        const runs = this.extractors.map((_, i) => (temporal[i] ? f >= from[i]! && f < to[i]! : f < span.end && f >= span.start && (subsample <= 1 || f % subsample === 0)));
        if (runs.some(Boolean)) work.push({ frame: f, runs });
      }
      let next = work.length ? this.read(work[0]!.frame, this.slots[0]!) : undefined;
      for (let k = 0; k < work.length; k++) {
        await next;
        // the next frame's read overlaps this one's scoring
        next = k + 1 < work.length ? this.read(work[k + 1]!.frame, this.slots[(k + 1) % 2]!) : undefined;
        next?.catch(() => {}); // awaited at the next frame; a failure of this one's scoring comes first
        const { frame, runs } = work[k]!;
        const pair = this.slots[k % 2]!.pair;
        for (let i = 0; i < this.extractors.length; i++) if (runs[i]) await (fresh[i] ?? this.extractors[i]!).extract(pair, frame, recorder);
      }
      // What a temporal extractor writes at flush holds only when the run ends with the span.
      recorder.keepAggregates = span.last;
      for (const e of fresh) await e?.flush(recorder);
    } finally {
      for (const e of fresh) await e?.close();
    }
    return recorder.writes;
  }

  private async read(frame: number, slot: Slot): Promise<void> {
    const read = (side: Side, into: Uint8Array) => side.file.read(side.skip + frame, into.subarray(0, side.file.frameBytes), true);
    await Promise.all([read(this.ref, slot.ref), read(this.dist, slot.dist)]);
  }
}
