import type { FramePair } from "@vq/cli/report";

// Messages between the page and its scoring worker (structured clones: Files travel as they are).

/** The page asks for one run: a reference against each distorted file in turn. */
export interface ScoreJob {
  type: "score";
  reference: File;
  distorted: File[];
  backend: "gpu" | "cpu";
  /** libvmaf's model syntax (`version=vmaf_v0.6.1`); empty with noPrediction for features only. */
  models: string[];
  noPrediction: boolean;
  /** Feature names as libvmaf's --feature takes them. */
  features: string[];
}

/** After a run, the report's worst frames to picture: per distorted file, its frame numbers. */
export interface ThumbnailJob {
  type: "thumbnails";
  reference: File;
  distorted: File[];
  frames: number[][];
}

/** One distorted file's result, in every format the page offers. */
export interface ScoredFile {
  name: string;
  /** libvmaf's JSON with round-trip precision: window.vqResult, exact to the last bit. */
  exactJson: string;
  /** libvmaf's JSON, CSV and XML with libvmaf's 6 digits, as `vq` writes them by default. */
  json: string;
  csv: string;
  xml: string;
  /** The backend that ran (`gpu`, `cpu`, `gpu+cpu`). */
  backend: string;
  width: number;
  height: number;
  frames: number;
  /** Frames per second scored, this file's run. */
  fps: number;
  bytes: number;
  frameCount?: number;
  frameRate?: { num: number; den: number };
}

export type WorkerMessage =
  | { type: "ready"; models: string[]; features: string[] }
  | { type: "start"; index: number; name: string; total?: number }
  | { type: "progress"; index: number; done: number; total?: number }
  | { type: "frame"; index: number; frameNum: number; metrics: Record<string, number> }
  | { type: "note"; message: string }
  | { type: "done"; results: ScoredFile[] }
  | { type: "thumbnails"; pairs: Map<number, FramePair>[] }
  | { type: "error"; message: string };
