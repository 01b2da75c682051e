import type { PictureFormat } from "../picture.ts";
import type { FfmpegOptions } from "./ffmpeg-reader.ts";

/** To a decoder worker (ffmpeg-worker.ts). */
export type ToDecoder =
  | { type: "open"; path: string; options: FfmpegOptions }
  /** A frame's buffer handed back once the frame is scored: the worker reads into it again. */
  | { type: "release"; buffer: ArrayBuffer }
  | { type: "close" };

/** From a decoder worker. */
export type FromDecoder =
  | { type: "opened"; format: PictureFormat; sourceFormat?: PictureFormat; frameRate?: { num: number; den: number }; frameCount?: number; pid?: number }
  | { type: "frame"; buffer: ArrayBuffer }
  | { type: "end" }
  | { type: "closed" }
  | { type: "error"; message: string; user: boolean };
