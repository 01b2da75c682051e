import { packedLayout, type FrameFile, type Picture, type PictureFormat, type VideoReader } from "@vq/core";

/**
 * Luma samples a fingerprint reads, spread over a band: ~2 µs a frame side at any size
 * (1080p: 4 µs a frame against the GPU path's ~380 µs), and an encode's next frame differs
 * from the last at nearly every sample unless it repeats it.
 */
const SAMPLES = 1024;
/**
 * The band: at most this many bytes from the middle of the luma plane (1080p: 34 rows).
 * On the GPU path frames are read straight into mapped upload memory, which is uncached
 * (reading 1024 scattered bytes back from it cost ~3 ms a frame on an H200); the band is
 * read again from the file into ordinary memory, one small read.
 */
const BAND_BYTES = 64 << 10;

/** FNV-1a over evenly spaced bytes: equal frames always match; different ones almost never do. */
export function lumaFingerprint(bytes: Uint8Array): number {
  const step = Math.max(1, Math.floor(bytes.length / SAMPLES));
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i += step) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h >>> 0;
}

/** Where the fingerprinted band lies in a packed frame (the Picture and file layout): the middle of its luma plane. */
function lumaBand(format: PictureFormat): { from: number; length: number } {
  const luma = packedLayout(format).planes[0]!;
  const bytes = luma.width * luma.height * (format.bitDepth > 8 ? 2 : 1);
  const length = Math.min(bytes, BAND_BYTES);
  return { from: luma.offset + Math.floor((bytes - length) / 2), length };
}

/**
 * Watches the frames of the reference and of one or more distorted inputs as the run reads
 * them (pictures, or bytes read straight from the files on the GPU path) and finds
 * distorted frames that repeat the one before while the reference moves on: an encode that
 * duplicated or dropped frames.
 */
export class RepeatedFrames {
  readonly ref: VideoReader;
  /** The distorted inputs to read instead of the ones given, in their order. */
  readonly dists: readonly VideoReader[];
  /** Fingerprints by the input's own frame index (skipped frames included). */
  private readonly refPrints: number[] = [];
  private readonly distPrints: number[][];

  constructor(ref: VideoReader, dists: readonly VideoReader[]) {
    this.ref = watched(ref, this.refPrints);
    this.distPrints = dists.map(() => []);
    this.dists = dists.map((d, k) => watched(d, this.distPrints[k]!));
  }

  /** The same inputs opened again and read from their start (a resumed run): watched into the same fingerprints. */
  rewatch(ref: VideoReader, dists: readonly VideoReader[]): { ref: VideoReader; dists: VideoReader[] } {
    return { ref: watched(ref, this.refPrints), dists: dists.map((d, k) => watched(d, this.distPrints[k]!)) };
  }

  /** Scored frame numbers (0 = the first frame after the skips) whose distorted frame (input `k`) repeats the previous one while the reference's changes. */
  repeats(k: number, skipRef: number, skipDist: number, frames: number): number[] {
    const dist = this.distPrints[k]!;
    const found: number[] = [];
    for (let i = 1; i < frames; i++) {
      const d = dist[skipDist + i];
      const r = this.refPrints[skipRef + i];
      const dPrev = dist[skipDist + i - 1];
      const rPrev = this.refPrints[skipRef + i - 1];
      // a side the run did not read (no kernel needs it) tells nothing
      if (d === undefined || r === undefined || dPrev === undefined || rPrev === undefined) continue;
      if (d === dPrev && r !== rPrev) found.push(i);
    }
    return found;
  }

  /** The warning for `repeats` of input `k`, or undefined when there are none. */
  warning(k: number, skipRef: number, skipDist: number, frames: number): string | undefined {
    const found = this.repeats(k, skipRef, skipDist, frames);
    if (!found.length) return undefined;
    const shown = found.slice(0, 10).join(", ");
    const more = found.length > 10 ? ` and ${found.length - 10} more` : "";
    const which = found.length === 1 ? `frame ${shown} repeats the frame` : `frames ${shown}${more} repeat the frame`;
    return `${this.dists[k]!.name}: ${which} before while the reference changes: duplicated or dropped frames?`;
  }
}

function watched(reader: VideoReader, prints: number[]): VideoReader {
  const band = lumaBand(reader.format);
  let index = 0;
  const file = reader.frameFile;
  return {
    name: reader.name,
    format: reader.format,
    frameRate: reader.frameRate,
    frameCount: reader.frameCount,
    frameFile: file && watchedFile(file, band, prints),
    async read(): Promise<Picture | null> {
      const picture = await reader.read();
      if (picture) prints[index++] = lumaFingerprint(picture.buffer.subarray(band.from, band.from + band.length));
      return picture;
    },
    release: (picture) => reader.release(picture),
    close: () => reader.close(),
  };
}

/**
 * Reads may come in any order and several at once: each fingerprint goes to its frame's
 * index. The band is read beside the frame into a buffer of its own (see BAND_BYTES).
 */
function watchedFile(file: FrameFile, band: { from: number; length: number }, prints: number[]): FrameFile {
  const free: Uint8Array[] = [];
  const look = async (index: number, read: Promise<void>) => {
    const bytes = free.pop() ?? new Uint8Array(band.length);
    try {
      await Promise.all([read, file.read(index, bytes, false, band.from)]);
      prints[index] = lumaFingerprint(bytes);
    } finally {
      free.push(bytes);
    }
  };
  return {
    name: file.name,
    frameCount: file.frameCount,
    frameBytes: file.frameBytes,
    source: file.source,
    async read(index, into, markerRoom, from) {
      if (from) return file.read(index, into, markerRoom, from);
      await look(index, file.read(index, into, markerRoom));
    },
    // a worker reads the frame (--threads): the band alone, read here
    readElsewhere: (index) => look(index, Promise.resolve()),
  };
}
