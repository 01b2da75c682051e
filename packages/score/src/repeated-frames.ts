import { packedLayout, type FrameFile, type Picture, type PictureFormat, type VideoReader } from "@vq/core";

/**
 * Luma samples a fingerprint reads, spread over the plane: ~2 µs a frame side at any size
 * (1080p: 4 µs a frame against the GPU path's ~450 µs), and an encode's next frame differs
 * from the last at nearly every sample unless it repeats it.
 */
const SAMPLES = 1024;

/** FNV-1a over evenly spaced bytes: equal frames always match; different ones almost never do. */
export function lumaFingerprint(bytes: Uint8Array): number {
  const step = Math.max(1, Math.floor(bytes.length / SAMPLES));
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i += step) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h >>> 0;
}

/** Bytes of the luma plane at the start of a packed frame. */
function lumaBytes(format: PictureFormat): number {
  const luma = packedLayout(format).planes[0]!;
  return luma.width * luma.height * (format.bitDepth > 8 ? 2 : 1);
}

/** A picture's luma rows (and the padding between them) as bytes. */
function lumaOf(picture: Picture): Uint8Array {
  const p = picture.planes[0]!;
  const length = ((p.height - 1) * p.stride + p.width) * (picture.bitDepth > 8 ? 2 : 1);
  return picture.buffer.subarray(p.offset, p.offset + length);
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
  const luma = lumaBytes(reader.format);
  let index = 0;
  const file = reader.frameFile;
  return {
    name: reader.name,
    format: reader.format,
    frameRate: reader.frameRate,
    frameCount: reader.frameCount,
    frameFile: file && watchedFile(file, luma, prints),
    async read(): Promise<Picture | null> {
      const picture = await reader.read();
      if (picture) prints[index++] = lumaFingerprint(lumaOf(picture));
      return picture;
    },
    release: (picture) => reader.release(picture),
    close: () => reader.close(),
  };
}

/** Reads may come in any order and several at once: each fingerprint goes to its frame's index. */
function watchedFile(file: FrameFile, luma: number, prints: number[]): FrameFile {
  return {
    name: file.name,
    frameCount: file.frameCount,
    frameBytes: file.frameBytes,
    async read(index, into, markerRoom) {
      await file.read(index, into, markerRoom);
      prints[index] = lumaFingerprint(into.subarray(0, luma));
    },
  };
}
