import { VqError, type VideoReader } from "@vq/core";
import { lumaThumbnail, thumbnailGrid, thumbnailMse, type LumaThumbnail } from "./luma-thumbnail.ts";

/**
 * `--align auto[=N]` (ADR 0030): the offset between the inputs within ±N frames whose
 * first frames match best, as libvmaf's frame skips. Offset k > 0: distorted frame i shows
 * reference frame i + k (skip k reference frames); k < 0: skip −k distorted frames.
 */
export interface Alignment {
  skipRef: number;
  skipDist: number;
  /** PSNR of the thumbnails' luma at that offset, from the mean squared difference of the better half of the pairs (dB). */
  psnr: number;
  /** Frame pairs compared per offset. */
  frames: number;
  /** The ±N searched. */
  search: number;
}

export const DEFAULT_ALIGN_SEARCH = 30;
/** Frame pairs compared per offset: enough to see motion, few enough to decode quickly. */
export const ALIGN_WINDOW = 10;
/**
 * Below this, the best offset is not a match: an x264 encode at crf 45 of the golden pan
 * keeps its thumbnails at 33 dB at the right offset; unrelated videos stay under 13 dB, and
 * the wrong offsets of a moving scene under 21 (ADR 0030).
 */
export const MIN_MATCH_PSNR = 25;
/** Offsets whose error is within this fraction of the best are a tie, won by the smallest shift (a still scene matches everywhere). */
const TIE = 0.01;

export interface OffsetScore {
  offset: number;
  mse: number;
}

/**
 * Every offset in ±search that has `window` frame pairs among the thumbnails read, with
 * the mean squared difference over the better half of those pairs (from each input's first
 * frame on): a frame repeated or dropped inside the window, or a rate doubled by --conform
 * (every other frame repeated), spoils only some pairs, while a wrong offset spoils all.
 */
export function offsetScores(ref: readonly LumaThumbnail[], dist: readonly LumaThumbnail[], search: number, window: number): OffsetScore[] {
  const scores: OffsetScore[] = [];
  const kept = Math.ceil(window / 2);
  for (let k = -search; k <= search; k++) {
    const r0 = Math.max(k, 0);
    const d0 = Math.max(-k, 0);
    if (r0 + window > ref.length || d0 + window > dist.length) continue;
    const pairs = Array.from({ length: window }, (_, i) => thumbnailMse(ref[r0 + i]!, dist[d0 + i]!)).sort((a, b) => a - b);
    scores.push({ offset: k, mse: pairs.slice(0, kept).reduce((a, b) => a + b, 0) / kept });
  }
  return scores;
}

/** The best offset: the lowest error, ties (within TIE) to the smallest shift. */
export function bestOffset(scores: readonly OffsetScore[]): OffsetScore | undefined {
  const lowest = Math.min(...scores.map((s) => s.mse));
  const near = scores.filter((s) => s.mse <= lowest * (1 + TIE) + 1e-9);
  return near.sort((a, b) => Math.abs(a.offset) - Math.abs(b.offset) || b.offset - a.offset)[0];
}

export function psnrOf(mse: number): number {
  return mse > 0 ? 10 * Math.log10((255 * 255) / mse) : Infinity;
}

/**
 * Opens both inputs afresh (the run's own readers stay at their first frame), reads up to
 * search + ALIGN_WINDOW frames of each, and finds the offset. No convincing match: an error.
 */
export async function findAlignment(openRef: () => Promise<VideoReader>, openDist: () => Promise<VideoReader>, search: number): Promise<Alignment> {
  const readers: VideoReader[] = [];
  try {
    readers.push(await openRef());
    readers.push(await openDist());
    const [ref, dist] = readers as [VideoReader, VideoReader];
    const grid = thumbnailGrid(ref.format, dist.format);
    const [refThumbs, distThumbs] = await Promise.all([readThumbnails(ref, grid, search + ALIGN_WINDOW), readThumbnails(dist, grid, search + ALIGN_WINDOW)]);
    const shortest = Math.min(refThumbs.length, distThumbs.length);
    if (shortest === 0) throw new VqError(`--align: ${refThumbs.length ? dist.name : ref.name} has no frames`);
    // Short inputs: half their length, so that some offsets besides 0 can be tried.
    const window = Math.min(ALIGN_WINDOW, Math.max(1, Math.floor(shortest / 2)));
    const best = bestOffset(offsetScores(refThumbs, distThumbs, search, window))!;
    const psnr = psnrOf(best.mse);
    if (psnr < MIN_MATCH_PSNR) {
      throw new VqError(
        `--align: no offset within ±${search} frames matches ${dist.name} to ${ref.name} (best: ${describeOffset(best.offset)}, thumbnail luma PSNR ${psnr.toFixed(1)} dB on the better half of ${window} frame pairs, below ${MIN_MATCH_PSNR} dB): are they the same video?`,
      );
    }
    return { skipRef: Math.max(best.offset, 0), skipDist: Math.max(-best.offset, 0), psnr, frames: window, search };
  } finally {
    for (const r of readers) await r.close();
  }
}

async function readThumbnails(reader: VideoReader, grid: { width: number; height: number }, count: number): Promise<LumaThumbnail[]> {
  const thumbs: LumaThumbnail[] = [];
  while (thumbs.length < count) {
    const picture = await reader.read();
    if (!picture) break;
    thumbs.push(lumaThumbnail(picture, grid));
    reader.release(picture);
  }
  return thumbs;
}

function describeOffset(offset: number): string {
  if (offset === 0) return "no offset";
  return offset > 0 ? `--frame_skip_ref ${offset}` : `--frame_skip_dist ${-offset}`;
}

/** The stderr line: what was found and the libvmaf option that scores the same. */
export function alignmentNote(a: Alignment, distName: string): string {
  const psnr = Number.isFinite(a.psnr) ? `${a.psnr.toFixed(1)} dB` : "identical";
  const at = a.skipRef ? `reference frame ${a.skipRef}` : "reference frame 0";
  const from = a.skipDist ? `distorted frame ${a.skipDist}` : "distorted frame 0";
  return `aligned: ${from} of ${distName} matches ${at} (${describeOffset(a.skipRef - a.skipDist)}; thumbnail luma PSNR ${psnr} on the better half of ${a.frames} frame pairs, searched ±${a.search})`;
}
