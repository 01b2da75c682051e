import type { PictureFormat } from "../picture.ts";

/** Which extractor a worker builds: the feature name and its validated options. */
export interface WorkerExtractorSpec {
  readonly name: string;
  readonly options: Readonly<Record<string, unknown>>;
}

/** One collector write made by an extractor in a worker, replayed in order on the main thread. */
export type RecordedWrite = readonly [kind: "score", name: string, index: number, value: number] | readonly [kind: "aggregate", name: string, value: number];

export type ToWorker =
  | { type: "init"; specs: WorkerExtractorSpec[]; format: PictureFormat }
  | { type: "frame"; index: number; ref: ArrayBuffer; dist: ArrayBuffer }
  | { type: "flush" };

export type FromWorker =
  | { type: "ready" }
  /** Writes per extractor (in spec order) for one frame or for the flush. */
  | { type: "frame"; index: number; writes: RecordedWrite[][] }
  | { type: "flushed"; writes: RecordedWrite[][] }
  | { type: "error"; message: string; user: boolean };
