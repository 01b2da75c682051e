import { openFileSource, streamSource } from "./byte-source.ts";
import { VqError } from "../errors.ts";
import type { Picture, PictureFormat } from "../picture.ts";
import { stopChildProcess, trackChildProcess } from "./child-processes.ts";
import { spawnDecoder } from "./decoder-process.ts";
import { probeVideo, type VideoProbe } from "./ffmpeg-probe.ts";
import type { VideoReader } from "./video-reader.ts";
import { isStreamInput, streamName } from "./stream-input.ts";
import { Y4mReader } from "./y4m-reader.ts";
import { usesWorkerThreads } from "../extraction/worker-thread.ts";
import { openFfmpegWorker } from "./ffmpeg-worker-reader.ts";

/** A reader of ffmpeg's output, and the decoder's process id (a worker's decoder is killed by it when vq exits). */
export interface DecodingReader extends VideoReader {
  readonly pid?: number;
  /** Settles once the decoder has exited (after close: stopped, killed after the grace period if it must be). */
  readonly exited?: Promise<unknown>;
}

export interface FfmpegOptions {
  /** The ffmpeg binary (default: `ffmpeg` on PATH). */
  ffmpeg?: string;
  /**
   * ffmpeg's `-hwaccel` for decoding (cuda, vaapi, qsv, videotoolbox, ...): the frames come
   * back to memory as the software decoder's would (decoders are exact, so scores are equal).
   */
  hwaccel?: string;
  /**
   * ffmpeg's decoding threads for this input (`-threads N` before it; 0 = ffmpeg's own
   * choice, about one a core, the default). Where many decoders run at once (a batch), a
   * few threads each decode more frames in all than a core's worth each.
   */
  threads?: number;
  /** Scale the video to this size (bicubic unless `scaler` says, as libvmaf users do by hand). */
  scaleTo?: { width: number; height: number };
  /** swscale's algorithm for `scaleTo` (its `flags=` name; default bicubic). */
  scaler?: string;
  /** ffmpeg video filters applied in this order, after `scaleTo` (e.g. `fps=24/1`, `format=yuv420p`). */
  filters?: readonly string[];
  /**
   * Where ffmpeg's pipe is read: "worker" (default where worker threads run: Node, Bun) a
   * thread of its own per input, frames handed over without a copy; "here" the calling thread.
   */
  readOn?: "worker" | "here";
  /**
   * Ask ffprobe (beside the ffmpeg binary) for the frame count, the progress line's total
   * (default true; off when the filters change the rate, which the count would not follow).
   */
  probe?: boolean;
  /**
   * Decode the luma plane alone (`extractplanes=y`: a plane copy, a third of the bytes
   * through the pipe at 4:2:0), where ffprobe finds a layout that ffmpeg's Y4M keeps as it
   * is and no filters change it (a hardware decoder's frames are first converted back to
   * the stream's format); else every plane. The pictures are then
   * 4:0:0 and the reader's `sourceFormat` is the stream's own (ADR 0043).
   */
  lumaOnly?: boolean;
}

export const FFMPEG_MISSING =
  "ffmpeg is needed to read this file but was not found: install it (Debian/Ubuntu: apt-get install ffmpeg) or give its path with --ffmpeg";

/**
 * Any container and codec ffmpeg decodes (mp4, mkv, webm, mov; H.264, HEVC, AV1, VP9,
 * ProRes, ...): ffmpeg streams the first video stream as Y4M through a pipe, with the
 * samples at their native bit depth, so memory stays constant over any length.
 */
export async function openWithFfmpeg(path: string, options: FfmpegOptions = {}): Promise<VideoReader> {
  // The pipe read on a thread of its own (adr/0041-threads-read-their-frames.md), where worker threads run.
  return options.readOn !== "here" && usesWorkerThreads() ? openFfmpegWorker(path, { ...options, readOn: "here" }) : decodeInThisThread(path, options);
}

/** openWithFfmpeg with ffmpeg's pipe read on the calling thread (what a decoder worker runs). */
export async function decodeInThisThread(path: string, options: FfmpegOptions = {}): Promise<DecodingReader> {
  // A pipe opened by name would make ffmpeg wait for a writer for good (stream-input.ts).
  if (isStreamInput(path)) throw new VqError(`${streamName(path)}: is a pipe, read once as a Y4M stream: ffmpeg cannot convert it (scaling, --conform); give a file`);
  // The file's own problems (missing, a directory, unreadable) are named before ffmpeg runs.
  await (await openFileSource(path)).close();
  const lumaWanted = !!options.lumaOnly && !options.filters?.length;
  // The probe runs beside the decoder's start, so it costs no time before the first frame;
  // with a hardware decoder it comes first: its frames are converted back to the stream's format.
  const probe: Promise<VideoProbe> = options.probe === false && !lumaWanted && !options.hwaccel ? Promise.resolve({}) : probeVideo(path, options.ffmpeg);
  const hardwareFormat = options.hwaccel ? await backFromHardware(path, options.hwaccel, probe) : undefined;
  const starting = startDecoder(path, { ...options, lumaOnly: lumaWanted }, hardwareFormat);
  const { layout, frameCount } = await probe;
  let opened = await starting;
  let sourceFormat: PictureFormat | undefined;
  if (lumaWanted) {
    const luma = opened.reader?.format;
    // the luma plane as the stream has it, or (no ffprobe, a layout ffmpeg converts) every plane
    if (layout && luma?.pixelFormat === "400" && luma.bitDepth === layout.bitDepth) sourceFormat = { ...luma, ...layout };
    else {
      stopChildProcess(opened.decoder.child);
      await opened.reader?.close();
      opened = await startDecoder(path, { ...options, lumaOnly: false }, hardwareFormat);
    }
  }
  const { decoder, reader, failure } = opened;
  const { exited } = decoder;
  if (!reader) throw await failure();
  return {
    name: path,
    format: reader.format,
    sourceFormat,
    // The rate of the stream ffmpeg decodes, as its Y4M header states it.
    frameRate: reader.frameRate,
    frameCount: options.probe === false ? undefined : frameCount,
    pid: decoder.pid,
    exited,
    async read(): Promise<Picture | null> {
      const p = await reader.read().catch(async (e) => {
        throw (await exited).code ? await failure() : e;
      });
      if (p === null) {
        const { code } = await exited;
        if (code) throw await failure();
      }
      return p;
    },
    release: (p) => reader.release(p),
    async close() {
      stopChildProcess(decoder.child);
      await reader.close();
    },
  };
}

/**
 * The pixel format a hardware decoder's frames go back to: the stream's own. Hardware
 * decoders hand ffmpeg semi-planar frames (NV12, P010) that its Y4M muxer refuses, and
 * only ffprobe tells which planar format holds them without loss (a 10-bit stream's
 * P010 is yuv420p10le, never yuv420p).
 */
async function backFromHardware(path: string, hwaccel: string, probe: Promise<VideoProbe>): Promise<string> {
  const { pixFmt } = await probe;
  if (!pixFmt) throw new VqError(`${path}: --hwaccel ${hwaccel}: ffprobe (beside ffmpeg) told no pixel format that Y4M carries, which the hardware decoder's frames must be converted back to: install ffprobe, or decode without --hwaccel`);
  return pixFmt;
}

/**
 * ffmpeg decoding `path` to Y4M, its header read: the reader, or none when ffmpeg failed
 * (`failure` tells why, from its exit and its last words). `hardwareFormat`: see backFromHardware.
 */
async function startDecoder(path: string, options: FfmpegOptions, hardwareFormat?: string) {
  const decoder = await spawnDecoder(options.ffmpeg ?? "ffmpeg", decodeArguments(path, options, hardwareFormat));
  const { child, exited } = decoder;
  trackChildProcess(child);
  const failure = async (): Promise<VqError> => {
    const { code, error } = await exited;
    if (error?.code === "ENOENT") return new VqError(FFMPEG_MISSING);
    if (error) return new VqError(`${path}: cannot start ffmpeg: ${error.message}`);
    const said = decoder.stderr().trim().split("\n").filter(Boolean);
    if (said.some((l) => /matches no streams/.test(l))) return new VqError(`${path}: has no video stream`);
    const how = options.hwaccel ? ` with -hwaccel ${options.hwaccel}` : "";
    return new VqError(`${path}: ffmpeg cannot decode it${how}${said.length ? `: ${said[said.length - 1]}` : ` (exit code ${code})`}`);
  };
  try {
    return { decoder, failure, reader: await Y4mReader.fromSource(path, streamSource(decoder.stdout)) };
  } catch {
    stopChildProcess(child);
    return { decoder, failure, reader: undefined };
  }
}

/**
 * ffmpeg's arguments to decode `path`'s first video stream to Y4M on its standard output;
 * `hardwareFormat`: the pixel format a hardware decoder's frames are converted to first.
 */
export function decodeArguments(path: string, options: FfmpegOptions, hardwareFormat?: string): string[] {
  const threads = options.threads ? ["-threads", String(options.threads)] : [];
  const args = ["-v", "error", "-nostdin", ...threads, ...(options.hwaccel ? ["-hwaccel", options.hwaccel] : []), "-i", path, "-map", "0:v:0", "-an", "-sn"];
  const filters = [...(hardwareFormat ? [`format=${hardwareFormat}`] : []), ...(options.scaleTo ? [`scale=${options.scaleTo.width}:${options.scaleTo.height}:flags=${options.scaler ?? "bicubic"}`] : []), ...(options.filters ?? []), ...(options.lumaOnly ? ["extractplanes=y"] : [])];
  if (filters.length) args.push("-vf", filters.join(","));
  args.push("-f", "yuv4mpegpipe", "-strict", "-1", "pipe:1");
  return args;
}

/** Y4M and raw YUV are read directly; everything else goes through ffmpeg. */
export function needsFfmpeg(path: string): boolean {
  return !/\.(y4m|yuv)$/i.test(path);
}
