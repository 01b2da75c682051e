import type { ByteSource } from "./byte-source.ts";
import { VqError } from "../errors.ts";
import type { FrameFile } from "./video-reader.ts";

const Y4M_MARKER = [0x46, 0x52, 0x41, 0x4d, 0x45, 0x0a]; // "FRAME\n"
const PIECE_BYTES = 4 << 20;
const MAX_PIECES = 8;

export interface FrameFileLayout {
  /** Byte position of frame 0's samples. */
  readonly firstFrameAt: number;
  /** Bytes from one frame's samples to the next's (markers and skipped planes included). */
  readonly frameSpacing: number;
  readonly frameBytes: number;
  readonly frameCount: number;
  /** Each frame's samples follow a plain "FRAME\n" marker (Y4M), checked on every read. */
  readonly y4mMarkers: boolean;
}

/**
 * Frames of a regular file read by position: any frame, several at once (each read runs on
 * the runtime's I/O threads), straight into the caller's buffer.
 */
export function positionalFrameFile(name: string, source: ByteSource, layout: FrameFileLayout): FrameFile | undefined {
  const readAt = source.readAt;
  if (!readAt) return undefined;
  const { firstFrameAt, frameSpacing, frameBytes, frameCount, y4mMarkers } = layout;
  const readFully = async (into: Uint8Array, position: number): Promise<number> => {
    let done = 0;
    while (done < into.length) {
      const n = await readAt(into.subarray(done), position + done);
      if (n === 0) break;
      done += n;
    }
    return done;
  };
  // A large frame (4K 10-bit: 25 MB a side) is read in pieces at once, on several I/O threads.
  const readChunked = async (into: Uint8Array, position: number): Promise<number> => {
    const pieces = Math.min(MAX_PIECES, Math.ceil(into.length / PIECE_BYTES));
    if (pieces <= 1) return readFully(into, position);
    const size = Math.ceil(into.length / pieces);
    const got = await Promise.all(Array.from({ length: pieces }, (_, i) => readFully(into.subarray(i * size, (i + 1) * size), position + i * size)));
    // bytes read up to the first short piece: what a sequential read would have got
    let total = 0;
    for (let i = 0; i < pieces; i++) {
      total += got[i]!;
      if (got[i]! < Math.min(size, into.length - i * size)) break;
    }
    return total;
  };
  return {
    name,
    frameCount,
    frameBytes,
    source: source.fd === undefined ? undefined : { fd: source.fd, layout },
    async read(index, into, markerRoom, from = 0) {
      if (!Number.isInteger(index) || index < 0 || index >= frameCount) throw new VqError(`${name}: no frame ${index} (it has ${frameCount})`);
      if (from + into.length > frameBytes) throw new VqError(`${name}: a read of ${into.length} bytes from byte ${from} goes past a frame (${frameBytes})`);
      const at = firstFrameAt + index * frameSpacing + from;
      if (!y4mMarkers || from > 0) {
        const got = await readChunked(into, at);
        if (got < into.length) throw new VqError(`${name}: frame ${index} is truncated: ${got} of ${into.length} bytes`);
        return;
      }
      // The marker comes in the same read, into the 6 bytes before `into` (or a small buffer).
      const withMarker = markerRoom && into.byteOffset >= 6 ? new Uint8Array(into.buffer, into.byteOffset - 6, into.length + 6) : undefined;
      const marker = withMarker ?? new Uint8Array(6);
      const got = withMarker ? (await readChunked(withMarker, at - 6)) - 6 : (await readFully(marker, at - 6)) === 6 ? await readChunked(into, at) : -6;
      if (!Y4M_MARKER.every((b, i) => marker[i] === b)) {
        throw new VqError(`${name}: frame ${index}: expected a FRAME marker at byte ${at - 6}, found "${printable(marker)}"`);
      }
      if (got < into.length) throw new VqError(`${name}: frame ${index} is truncated: ${Math.max(0, got)} of ${into.length} bytes`);
    },
  };
}

/** The marker's bytes as text; VqError escapes the control bytes among them. */
function printable(bytes: Uint8Array): string {
  return String.fromCharCode(...bytes.subarray(0, 6));
}
