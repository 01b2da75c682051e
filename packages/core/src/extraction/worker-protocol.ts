import type { PictureFormat } from "../picture.ts";
import type { FrameFileSource } from "../readers/video-reader.ts";

/** Which extractor a worker builds: the feature name and its validated options. */
export interface WorkerExtractorSpec {
  readonly name: string;
  readonly options: Readonly<Record<string, unknown>>;
  /** Frames before a span that a temporal extractor started afresh must see (ExtractorDefinition.warmUpFrames); spans only. */
  readonly warmUp?: number;
}

/** Frames [start, end) of a run; `last` when the run ends at `end`. */
export interface FrameSpan {
  readonly start: number;
  readonly end: number;
  readonly last: boolean;
}

/** The run's two files as a worker reads them, and the frames each skips (run frame i is file frame skip + i). */
export interface SpanInputs {
  readonly ref: FrameFileSource;
  readonly dist: FrameFileSource;
  /** The inputs' names, for messages. */
  readonly refName: string;
  readonly distName: string;
  readonly skipRef: number;
  readonly skipDist: number;
  /** The run's first frame: no warm-up reaches before it (a run resumed mid-way starts there). */
  readonly first: number;
  /** One past the run's last frame. */
  readonly end: number;
}

export interface SpanFiles extends SpanInputs {
  /** libvmaf's --subsample. */
  readonly subsample: number;
}

/** One collector write made by an extractor in a worker, replayed in order on the main thread. */
export type RecordedWrite = readonly [kind: "score", name: string, index: number, value: number] | readonly [kind: "aggregate", name: string, value: number];

export type ToWorker =
  | { type: "init"; specs: WorkerExtractorSpec[]; format: PictureFormat }
  | { type: "frame"; index: number; ref: ArrayBuffer; dist: ArrayBuffer }
  /** Frames the worker reads itself from `files` (sent once, before the first span). */
  | { type: "files"; files: SpanFiles }
  | { type: "span"; span: FrameSpan }
  | { type: "flush" };

export type FromWorker =
  | { type: "ready" }
  /** Writes per extractor (in spec order) for one frame or for the flush. */
  | { type: "frame"; index: number; writes: RecordedWrite[][] }
  | { type: "flushed"; writes: RecordedWrite[][] }
  /** Every write of a span's frames, in the order a single thread makes them (frame by frame, extractor by extractor). */
  | { type: "span"; start: number; writes: RecordedWrite[] }
  | { type: "error"; message: string; user: boolean };
