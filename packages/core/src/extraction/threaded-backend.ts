import { VqError } from "../errors.ts";
import type { FeatureExtractor, PicturePair } from "./extractor.ts";
import type { FeatureCollector } from "./feature-collector.ts";
import { Picture, type PictureFormat } from "../picture.ts";
import type { ExtractionBackend } from "./scoring.ts";
import type { FrameSpan, FromWorker, RecordedWrite, SpanFiles, SpanInputs, ToWorker, WorkerExtractorSpec } from "./worker-protocol.ts";
import { startWorker, usesWorkerThreads, type WorkerHandle } from "./worker-thread.ts";

/** An extractor of a threaded run: temporal ones stay on the main thread, the rest go to workers. */
export interface ThreadedExtractor {
  readonly extractor: FeatureExtractor<PicturePair>;
  /** How a worker rebuilds it; absent = runs on the main thread. */
  readonly spec?: WorkerExtractorSpec;
}

/** Frames per span at most: the warm-up a span repeats (motion: 1 to 3 frames) stays a few per cent of it. */
const MAX_SPAN_FRAMES = 16;
/** Frames per span at least (the run's last span may be shorter). */
const MIN_SPAN_FRAMES = 2;

/** Frames [first, frames) in spans of `size`. */
export function evenSpans(first: number, frames: number, size: number): FrameSpan[] {
  const spans: FrameSpan[] = [];
  for (let start = first; start < frames; start += size) spans.push({ start, end: Math.min(frames, start + size), last: start + size >= frames });
  return spans;
}

/**
 * Frames [first, frames) in spans that shrink toward the end (guided scheduling): each a
 * quarter of an even share of the frames left, 2 to 16 frames. With even 16-frame spans
 * a worker handed its last spans late kept scoring for seconds while the others idled
 * (1080p, 16 threads: 72 fps, against 82 with 4-frame spans; ADR 0041); small spans cost only the
 * temporal extractors' warm-up, and the first ones stay long.
 */
export function guidedSpans(first: number, frames: number, threads: number): FrameSpan[] {
  const spans: FrameSpan[] = [];
  for (let start = first; start < frames; ) {
    const size = Math.max(MIN_SPAN_FRAMES, Math.min(MAX_SPAN_FRAMES, Math.ceil((frames - start) / (4 * threads))));
    const end = Math.min(frames, start + size);
    spans.push({ start, end, last: end === frames });
    start = end;
  }
  return spans;
}

interface PendingSpan {
  span: FrameSpan;
  worker: number;
  writes: Promise<RecordedWrite[]>;
  /** Its writes came back (or it failed). */
  done: boolean;
}

interface PendingFrame {
  index: number;
  pair: PicturePair;
  writes: Promise<RecordedWrite[][]>;
}

function replay(collector: FeatureCollector, writes: readonly RecordedWrite[]): void {
  for (const w of writes) {
    if (w[0] === "score") collector.append(w[1], w[2], w[3]);
    else collector.setAggregate(w[1], w[2]);
  }
}

/**
 * libvmaf's --threads on the CPU: frames go round-robin to worker threads that run the
 * extractors that do not depend on other frames; temporal ones (motion, psnr's APSNR)
 * run on the main thread in frame order. Each frame's writes are applied in the order
 * a single thread would make them (frame by frame, extractor by extractor), so the
 * output is identical to one thread's, key order included.
 */
export class ThreadedCpuBackend implements ExtractionBackend {
  readonly name: string;
  private readonly workers: WorkerHandle<ToWorker>[] = [];
  private readonly waiting = new Map<number, { resolve: (w: RecordedWrite[][]) => void; reject: (e: unknown) => void }>();
  private flushWaiters: ((w: RecordedWrite[][]) => void)[] = [];
  private readonly pending: PendingFrame[] = [];
  private failure: unknown;
  private next = 0;
  private remote: ThreadedExtractor[];
  /** Set by planSpans: the workers read their own frames, a span at a time, and run every extractor. */
  private spanFiles?: SpanFiles;
  private readonly spans: PendingSpan[] = [];
  private readonly spanWaiting = new Map<number, { resolve: (w: RecordedWrite[]) => void; reject: (e: unknown) => void }>();
  /** Spans in flight per worker. */
  private busy: number[] = [];

  constructor(
    private readonly extractors: readonly ThreadedExtractor[],
    private readonly workerUrl: URL,
    private readonly threads: number,
    private readonly subsample = 1,
    /** Frames per span (by default from the run's length and the threads, at most MAX_SPAN_FRAMES). */
    private readonly spanFrames?: number,
  ) {
    this.name = `cpu×${threads}`;
    this.remote = extractors.filter((e) => e.spec && !e.extractor.definition.temporal);
  }

  private specs: WorkerExtractorSpec[] = [];
  private format?: PictureFormat;

  /** `frames`, when known: no more workers start than there are frames (each costs ~7.5 MB). */
  /**
   * For inputs that are regular files: the spans of frames [first, frames) to hand to
   * extractSpan, each worker reading its own frames (adr/0041-threads-read-their-frames.md),
   * or undefined when an extractor cannot start mid-run (a whole-run aggregate such as
   * APSNR, an extractor with no worker spec): then frames come one at a time through extract.
   * Called before init; a plan given switches the backend to spans.
   */
  planSpans(files: SpanInputs, first: number, frames: number): FrameSpan[] | undefined {
    const warmUps = this.extractors.map((e) => (e.spec ? (e.extractor.definition.warmUpFrames?.(e.spec.options as never) ?? (e.extractor.definition.temporal ? Infinity : 0)) : Infinity));
    // A descriptor is shared by every thread of a Node or Bun process; Deno's and a browser's workers do not share them.
    if (warmUps.some((w) => w === Infinity) || !usesWorkerThreads()) return undefined;
    this.spanFiles = { ...files, subsample: this.subsample };
    this.remote = [...this.extractors];
    this.specs = this.extractors.map((e, i) => ({ ...e.spec!, warmUp: warmUps[i] }));
    return this.spanFrames ? evenSpans(first, frames, this.spanFrames) : guidedSpans(first, frames, this.threads);
  }

  async init(format: PictureFormat, frames?: number): Promise<void> {
    for (const e of this.extractors) if (!this.isRemote(e)) await e.extractor.init(format);
    if (!this.remote.length) return;
    if (!this.spanFiles) this.specs = this.remote.map((e) => e.spec!);
    this.format = format;
    // Started together now; with the count unknown (a stream) one now and the others as frames
    // need them, so a clip of 3 frames never pays for 256 workers.
    const now = Math.max(1, Math.min(this.threads, frames ?? 1));
    await Promise.all(Array.from({ length: now }, () => this.startWorker()));
  }

  /** Whether the workers read their own frames, a span at a time (planSpans gave a plan). */
  get readsOwnFrames(): boolean {
    return this.spanFiles !== undefined;
  }

  /** How many workers have started (at most `threads`, at most one per frame sent). */
  get workerCount(): number {
    return this.workers.length;
  }

  /** Starts a worker; resolves once its extractors are built (a frame sent earlier would find none). */
  private startWorker(): Promise<void> {
    const fail = (err: Error, reject: (e: unknown) => void) => {
      this.failure ??= err;
      reject(err);
      for (const p of this.waiting.values()) p.reject(err);
      this.waiting.clear();
      for (const p of this.spanWaiting.values()) p.reject(err);
      this.spanWaiting.clear();
    };
    return new Promise<void>((resolve, reject) => {
      void startWorker<FromWorker, ToWorker>(this.workerUrl, {
        message: (m) => {
          if (m.type === "ready") resolve();
          else if (m.type === "frame") this.waiting.get(m.index)?.resolve(m.writes), this.waiting.delete(m.index);
          else if (m.type === "span") this.spanWaiting.get(m.start)?.resolve(m.writes), this.spanWaiting.delete(m.start);
          else if (m.type === "flushed") this.flushWaiters.shift()?.(m.writes);
          else if (m.type === "error") fail(m.user ? new VqError(m.message) : new Error(m.message), reject);
        },
        error: (err) => fail(err, reject),
      }).then((w) => {
        this.workers.push(w);
        this.busy.push(0);
        w.post({ type: "init", specs: this.specs, format: this.format! });
        // processed after init (a worker takes its messages one at a time, in order)
        if (this.spanFiles) w.post({ type: "files", files: this.spanFiles });
      }, reject);
    });
  }

  private isRemote(e: ThreadedExtractor): boolean {
    return this.remote.includes(e);
  }

  async extract(pair: PicturePair, index: number, collector: FeatureCollector): Promise<void> {
    if (this.failure) throw this.failure;
    // The caller reuses its buffers: keep our own copies while the frame is in flight.
    const own = { ref: copyPicture(pair.ref), dist: copyPicture(pair.dist) };
    const skip = this.subsample > 1 && index % this.subsample !== 0;
    let writes: Promise<RecordedWrite[][]>;
    if (!this.remote.length || skip) {
      writes = Promise.resolve(this.remote.map(() => []));
    } else {
      // Round robin over the workers; another starts while each one already has a frame.
      if (this.next >= this.workers.length && this.workers.length < this.threads) await this.startWorker();
      writes = new Promise((resolve, reject) => this.waiting.set(index, { resolve, reject }));
      const ref = pair.ref.buffer.slice().buffer;
      const dist = pair.dist.buffer.slice().buffer;
      this.workers[this.next++ % this.workers.length]!.post({ type: "frame", index, ref, dist }, [ref, dist]);
    }
    writes.catch(() => {}); // observed when the frame settles; a failure must not go unhandled meanwhile
    this.pending.push({ index, pair: own, writes });
    // Keep every worker busy with a couple of frames, but no more (memory stays bounded).
    while (this.pending.length > 2 * Math.max(1, this.workers.length)) await this.settleOldest(collector);
  }

  /**
   * Hands span `span` (from planSpans) to the least busy worker, which reads its frames and
   * runs every extractor on them; resolves once the next span may be handed out. Spans
   * are applied in order, so the writes land as one thread makes them.
   */
  async extractSpan(span: FrameSpan, collector: FeatureCollector): Promise<void> {
    if (this.failure) throw this.failure;
    let worker = this.busy.indexOf(Math.min(...this.busy));
    if (this.busy[worker]! > 0 && this.workers.length < this.threads) {
      await this.startWorker();
      worker = this.workers.length - 1;
    }
    const pending: PendingSpan = { span, worker, writes: undefined!, done: false };
    pending.writes = new Promise<RecordedWrite[]>((resolve, reject) => this.spanWaiting.set(span.start, { resolve, reject })).finally(() => {
      // a worker is free again as soon as its span comes back, whether or not older spans have
      pending.done = true;
      this.busy[worker]!--;
      this.spanDone?.();
    });
    pending.writes.catch(() => {}); // observed when the span settles
    this.busy[worker]!++;
    this.workers[worker]!.post({ type: "span", span });
    this.spans.push(pending);
    // Spans that came back are applied in order; the next span goes out once a worker has
    // fewer than two (one scored, one waiting), so no worker idles behind a slow older span.
    // Results held for order stay bounded (a few spans' writes per worker).
    for (;;) {
      while (this.spans[0]?.done) await this.settleOldestSpan(collector);
      if (this.failure) throw this.failure;
      const free = this.workers.length < this.threads || Math.min(...this.busy) < 2;
      if (free && this.spans.length < 8 * this.workers.length) return;
      await new Promise<void>((resolve) => (this.spanDone = resolve));
      this.spanDone = undefined;
    }
  }

  private spanDone?: () => void;

  private async settleOldestSpan(collector: FeatureCollector): Promise<void> {
    const { writes } = this.spans.shift()!;
    replay(collector, await writes);
  }

  /** Applies the oldest frame: worker writes and main-thread extractors, in extractor order. */
  private async settleOldest(collector: FeatureCollector): Promise<void> {
    const frame = this.pending.shift()!;
    const writes = await frame.writes;
    const skip = this.subsample > 1 && frame.index % this.subsample !== 0;
    let r = 0;
    for (const e of this.extractors) {
      if (this.isRemote(e)) replay(collector, writes[r++]!);
      else if (!skip || e.extractor.definition.temporal) await e.extractor.extract(frame.pair, frame.index, collector);
    }
  }

  async flush(collector: FeatureCollector): Promise<void> {
    while (this.spans.length) await this.settleOldestSpan(collector);
    while (this.pending.length) await this.settleOldest(collector);
    if (this.failure) throw this.failure;
    // Remote extractors are not temporal, but may still write at flush: take each worker's writes.
    const flushed: RecordedWrite[][][] = await Promise.all(
      this.workers.map(
        (w) =>
          new Promise<RecordedWrite[][]>((resolve) => {
            this.flushWaiters.push(resolve);
            w.post({ type: "flush" });
          }),
      ),
    );
    let r = 0;
    for (const e of this.extractors) {
      if (this.isRemote(e)) {
        for (const perWorker of flushed) replay(collector, perWorker[r]!);
        r++;
      } else await e.extractor.flush(collector);
    }
  }

  async close(): Promise<void> {
    for (const e of this.extractors) if (!this.isRemote(e)) await e.extractor.close();
    for (const w of this.workers) w.terminate();
    this.workers.length = 0;
  }
}

function copyPicture(p: Picture): Picture {
  return new Picture(p.format, p.buffer.slice(), p.planes);
}
