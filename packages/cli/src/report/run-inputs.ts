import { statSync } from "node:fs";
import { isStreamInput, needsFfmpeg, openWithFfmpeg, RawYuvReader, streamName, Y4mReader, isVqError, type PixelFormat, type VideoReader } from "@vq/core";
import { bitrate, type FrameRate, type RateInputs } from "./rate-quality.ts";
import { pngDataUri, encodePng } from "./png.ts";
import type { ReportData, RunSettings } from "./report-data.ts";
import { THUMBNAIL_WIDTH, thumbnailRgb } from "./thumbnail.ts";

export { THUMBNAIL_WIDTH };

/** A frame's reference and distorted pictures, as PNG data URIs. */
export interface FramePair {
  reference: string;
  distorted: string;
}

/** What the report learns from a run's input files when they are readable at report time. */
export interface RunInputs {
  /** Size, frame count and frame rate of the distorted file; `bitsPerSecond` when all are known. */
  rate?: RateInputs;
  bitsPerSecond?: number;
  /** Per frame number: the reference beside the distorted. */
  thumbnails: Map<number, FramePair>;
  /** Why something is missing (a file no longer there, a rate not known), for the page. */
  notes: string[];
}

function openInput(path: string, run: RunSettings, scaleTo?: { width: number; height: number }, filters?: string[]): Promise<VideoReader> {
  // the probe's frame count is the file's, not that of its conversion to another rate
  if (needsFfmpeg(path) || filters) return openWithFfmpeg(path, { ffmpeg: run.ffmpeg, scaleTo, filters, probe: !filters });
  if (/\.yuv$/i.test(path) && run.raw) return RawYuvReader.open(path, { ...run.raw, pixelFormat: run.raw.pixelFormat as PixelFormat });
  return Y4mReader.open(path);
}

/** An even size THUMBNAIL_WIDTH wide, for ffmpeg to scale to while it decodes (4:2:0 needs even sizes). */
function thumbnailSize(width: number, height: number): { width: number; height: number } {
  const w = Math.min(THUMBNAIL_WIDTH, width);
  return { width: w + (w % 2), height: Math.max(2, 2 * Math.round((height * w) / width / 2)) };
}

interface Decoded {
  /** Frame index in the file → PNG data URI. */
  pictures: Map<number, string>;
  frameRate?: FrameRate;
  /** Frames in the file, when known (read to its end, or from its size). */
  frameCount?: number;
}

/**
 * Reads `path` up to the last frame in `wanted` (indices in the file) and keeps those as
 * thumbnails; with `count`, on to the end, to know how many frames the file has when its
 * header does not say. ffmpeg inputs are decoded straight at thumbnail size: small pictures
 * through the pipe, so counting a long file costs little more than its decoding. `rateTo`:
 * a file of another rate is converted to it first (ffmpeg's fps filter, as --conform scored
 * it), so that frame numbers are the scored ones.
 */
async function decode(path: string, run: RunSettings, wanted: ReadonlySet<number>, count: boolean, rateTo?: FrameRate): Promise<Decoded> {
  let reader = await openInput(path, run);
  const rate = reader.frameRate;
  const filters = rateTo && rate && rate.num * rateTo.den !== rateTo.num * rate.den ? [`fps=${rateTo.num}/${rateTo.den}`] : undefined;
  if (needsFfmpeg(path) || filters) {
    const size = thumbnailSize(reader.format.width, reader.format.height);
    await reader.close();
    reader = await openInput(path, run, size, filters);
  }
  try {
    const pictures = new Map<number, string>();
    const last = Math.max(-1, ...wanted);
    const readAll = count && reader.frameCount === undefined;
    let index = 0;
    for (; readAll || index <= last; index++) {
      const picture = await reader.read();
      if (!picture) break;
      if (wanted.has(index)) {
        const t = thumbnailRgb(picture, THUMBNAIL_WIDTH);
        pictures.set(index, pngDataUri(encodePng(t.width, t.height, t.rgb)));
      }
      reader.release(picture);
    }
    return { pictures, frameRate: reader.frameRate, frameCount: reader.frameCount ?? (readAll ? index : undefined) };
  } finally {
    await reader.close();
  }
}

const reason = (e: unknown) => (isVqError(e) || e instanceof Error ? e.message : String(e));

/**
 * Opens a run's inputs again after scoring: the distorted file's size, frame count and
 * frame rate (for its bitrate), and the reference beside the distorted at `frameNums`.
 * Nothing here fails the report: what cannot be read becomes a note on the page.
 */
export async function inspectRunInputs(data: ReportData, frameNums: readonly number[]): Promise<RunInputs | undefined> {
  const run = data.run;
  if (!run) return undefined;
  const inputs: RunInputs = { thumbnails: new Map(), notes: [] };
  // a pipe was read once, by the run (and opening a FIFO again would wait for a writer)
  const stream = [run.reference, run.distorted].find(isStreamInput);
  if (stream !== undefined) {
    inputs.notes.push(`${streamName(stream)} is a pipe, read once by the run: no bitrate or thumbnails`);
    return inputs;
  }
  let bytes: number | undefined;
  try {
    const st = statSync(run.distorted);
    if (st.isFile()) bytes = st.size;
    else inputs.notes.push(`${run.distorted} is not a regular file: no bitrate`);
  } catch (e) {
    inputs.notes.push(`${run.distorted}: ${reason(e)}: no bitrate or thumbnails`);
    return inputs;
  }
  let reference: Decoded | undefined;
  let distorted: Decoded | undefined;
  try {
    reference = await decode(run.reference, run, new Set(frameNums.map((f) => f + run.skipRef)), false);
    distorted = await decode(run.distorted, run, new Set(frameNums.map((f) => f + run.skipDist)), bytes !== undefined, run.conform ? reference.frameRate : undefined);
  } catch (e) {
    inputs.notes.push(`cannot read the inputs again: ${reason(e)}`);
  }
  for (const f of frameNums) {
    const ref = reference?.pictures.get(f + run.skipRef);
    const dist = distorted?.pictures.get(f + run.skipDist);
    if (ref && dist) inputs.thumbnails.set(f, { reference: ref, distorted: dist });
  }
  if (distorted && bytes !== undefined) {
    const frameRate = distorted.frameRate ?? reference?.frameRate;
    if (!frameRate) inputs.notes.push(`the frame rate of ${run.distorted} is not known (raw YUV carries none): no bitrate`);
    else if (distorted.frameCount === undefined) inputs.notes.push(`the frame count of ${run.distorted} is not known: no bitrate`);
    else {
      inputs.rate = { bytes, frames: distorted.frameCount, frameRate };
      inputs.bitsPerSecond = bitrate(inputs.rate);
    }
  }
  return inputs;
}
