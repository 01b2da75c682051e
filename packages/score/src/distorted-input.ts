import { openWithFfmpeg, VqError, type FfmpegOptions, type VideoReader } from "@vq/core";
import { alignmentNote, findAlignment, type Alignment } from "./alignment.ts";
import { changesRate, planConform, type Scaler } from "./conform.ts";

export interface DistortedOptions {
  /** Convert the distorted input to the reference's format (--conform). */
  conform?: { scaler: Scaler };
  /** Find the offset between the inputs within ±search frames (--align auto). */
  align?: { search: number };
  skipRef: number;
  skipDist: number;
  ffmpeg?: FfmpegOptions;
}

/** How to open an input again from its start; absent for a VideoReader given by the caller. */
export interface Reopeners {
  reference?: () => Promise<VideoReader>;
  distorted?: () => Promise<VideoReader>;
}

export interface DistortedInput {
  /** What to score: the distorted input as opened, or converted by ffmpeg to the reference's format. */
  reader: VideoReader;
  /** The ffmpeg filters of the conversion (empty: none). */
  filters: string[];
  skipRef: number;
  skipDist: number;
  alignment?: Alignment;
  /** Opens `reader` again from its start (converted as it is); absent for a VideoReader given by the caller. */
  reopen?: () => Promise<VideoReader>;
}

/**
 * The distorted input as it will be scored: its format checked against the reference's
 * (or converted, with conform), and its offset found (with align). `opened` is the input as
 * opened for the run; this takes it over: it is closed here when a converted one replaces
 * it, and whatever is open is closed when this fails.
 */
export async function prepareDistorted(ref: VideoReader, opened: VideoReader, reopen: Reopeners, options: DistortedOptions, onNote?: (message: string) => void): Promise<DistortedInput> {
  let reader = opened;
  try {
    const filters = planConform(ref, opened, options.conform);
    let reopenDist = reopen.distorted;
    if (filters.length) {
      if (!reopenDist) throw new VqError(`${opened.name}: conform converts the distorted video through ffmpeg, so it must be a file path, not frames`);
      const path = opened.name;
      // A rate change makes the container's frame count wrong for the converted stream.
      reopenDist = () => openWithFfmpeg(path, { ...options.ffmpeg, filters, probe: !changesRate(filters) });
      await opened.close();
      reader = await reopenDist();
      onNote?.(`conform: ${path} converted to the reference's format by ffmpeg -vf ${filters.join(",")}`);
    }
    if (!options.align) return { reader, filters, skipRef: options.skipRef, skipDist: options.skipDist, reopen: reopenDist };
    if (options.skipRef || options.skipDist) throw new VqError("--align auto finds the frame skips itself: give it without --frame_skip_ref and --frame_skip_dist");
    if (!reopen.reference || !reopenDist) throw new VqError("--align auto reads the inputs' first frames separately, so both must be file paths, not frames");
    const alignment = await findAlignment(reopen.reference, reopenDist, options.align.search);
    onNote?.(alignmentNote(alignment, reader.name));
    return { reader, filters, skipRef: alignment.skipRef, skipDist: alignment.skipDist, alignment, reopen: reopenDist };
  } catch (e) {
    await reader.close();
    throw e;
  }
}
