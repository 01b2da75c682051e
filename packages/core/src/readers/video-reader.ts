import type { Picture, PictureFormat } from "../picture.ts";
import type { FrameFileLayout } from "./frame-file.ts";

/** A stream of pictures of one format: what the Y4M, raw YUV (and later ffmpeg) readers share. */
export interface VideoReader {
  /** Name used in error messages (the path). */
  readonly name: string;
  readonly format: PictureFormat;
  /**
   * The input's own format when the pictures hold only part of it (its luma plane: a luma-only
   * decode, or a lumaView); absent when they hold all of it. Checks between inputs use this.
   */
  readonly sourceFormat?: PictureFormat;
  /** Frames per second when the input says (Y4M's F tag, the stream ffmpeg decodes); never 0/0. */
  readonly frameRate?: { num: number; den: number };
  /**
   * Number of frames when known up front: exact for Y4M and raw YUV of a regular file; for
   * ffmpeg inputs what the container says (ffprobe), which a decode may miss by a frame, so
   * a total for progress, not a bound.
   */
  readonly frameCount?: number;
  /** The next picture, or null after the last one. */
  read(): Promise<Picture | null>;
  /**
   * Positional access to the frames' bytes, when the input is a regular file with a fixed
   * frame layout: the GPU path reads frames straight into its upload buffers, several at
   * once, with no Picture in between.
   */
  readonly frameFile?: FrameFile;
  /** Hands a picture's buffer back for reuse, so memory stays constant over any number of frames. */
  release(picture: Picture): void;
  close(): Promise<void>;
}

/** A small free list of frame buffers, so readers allocate nothing per frame in steady state. */
export class FrameBufferPool {
  private readonly free: Uint8Array[] = [];
  constructor(readonly byteLength: number, private readonly capacity = 8) {}

  take(): Uint8Array {
    return this.free.pop() ?? new Uint8Array(this.byteLength);
  }

  give(buffer: Uint8Array): void {
    if (buffer.byteLength === this.byteLength && this.free.length < this.capacity) this.free.push(buffer);
  }
}

/** A file of equally sized frames whose bytes can be read at any frame, in any order. */
export interface FrameFile {
  readonly name: string;
  readonly frameCount: number;
  /** Sample bytes of one frame: every plane, packed (the Picture layout). */
  readonly frameBytes: number;
  /**
   * Reads `into.length` bytes of frame `index`'s samples from byte `from` (default 0) on.
   * `markerRoom`: the 6 bytes before `into` in its buffer may be overwritten (Y4M reads its
   * FRAME marker there in the same read, and checks it; a read from elsewhere than the
   * frame's start checks no marker).
   */
  read(index: number, into: Uint8Array, markerRoom: boolean, from?: number): Promise<void>;
  /** Where the frames lie, for a worker thread that reads its own frames (adr/0041-threads-read-their-frames.md). */
  readonly source?: FrameFileSource;
  /**
   * Frame `index` is read by a worker, not through `read`: a wrapper that looks at every
   * frame read (repeated-frame detection) takes its own look here.
   */
  readElsewhere?(index: number): Promise<void>;
}

/** A frame file as a worker thread of this process reads it: the descriptor (which stays open while the file does) and its frames' layout. */
export interface FrameFileSource {
  readonly fd: number;
  readonly layout: FrameFileLayout;
}
