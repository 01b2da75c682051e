import { close, fstat, open, read, statSync } from "node:fs";
import type { ByteSource } from "./byte-source.ts";
import { VqError } from "../errors.ts";
import type { PictureFormat } from "../picture.ts";
import type { VideoReader } from "./video-reader.ts";
import { RawYuvReader } from "./yuv-reader.ts";
import { Y4mReader } from "./y4m-reader.ts";

const Y4M_MAGIC = "YUV4MPEG2";

/**
 * `-`, `/dev/stdin`, a FIFO, a socket or a character device: bytes that come once, in order,
 * with no size. Such an input is read as a stream (Y4M, or raw YUV with its format given),
 * never handed to ffmpeg by name: ffmpeg would open the FIFO after vq had looked at it and
 * wait for a writer for good, and it cannot see vq's standard input at all.
 */
export function isStreamInput(path: string): boolean {
  if (path === "-") return true;
  try {
    const s = statSync(path);
    return s.isFIFO() || s.isSocket() || s.isCharacterDevice();
  } catch {
    return false;
  }
}

/** The name a stream has in messages. */
export function streamName(path: string): string {
  return path === "-" ? "standard input" : path;
}

// A stream's bytes can be read once: a second open while it is read (--align, the same pipe
// given twice) would see what is left. Closed, it may be opened again (a FIFO's next writer).
const opened = new Set<string>();

/**
 * Opens a stream input: a Y4M stream (it must start with "YUV4MPEG2", or it is refused at
 * once), or raw YUV when `raw` gives its format. The open does not block the event loop (a
 * FIFO waits for its writer), so a signal still stops vq while it waits.
 */
export async function openStreamInput(path: string, raw?: PictureFormat): Promise<VideoReader> {
  const name = streamName(path);
  const key = path === "-" ? "/dev/stdin" : path;
  if (opened.has(key)) throw new VqError(`${name}: a pipe can be read only once, and this run reads it again (--align, --conform or the same pipe twice): give a file`);
  opened.add(key);
  let source: ByteSource;
  try {
    source = forgottenOnClose(await openStream(path, name), key);
  } catch (e) {
    opened.delete(key);
    throw e;
  }
  if (raw) return RawYuvReader.fromSource(name, source, raw);
  const head = new Uint8Array(Y4M_MAGIC.length);
  let got = 0;
  try {
    while (got < head.length) {
      const n = await source.read(head.subarray(got));
      if (n === 0) break;
      got += n;
    }
  } catch (e) {
    await source.close();
    throw e;
  }
  if (got < head.length || String.fromCharCode(...head) !== Y4M_MAGIC) {
    await source.close();
    if (got === 0) throw new VqError(`${name}: the stream is empty (a pipe is read as Y4M, which starts with "YUV4MPEG2")`);
    throw new VqError(`${name}: a pipe is read as a Y4M stream, and this one does not start with "YUV4MPEG2": convert it first (ffmpeg -i INPUT -f yuv4mpegpipe -strict -1 -), or give a file`);
  }
  return Y4mReader.fromSource(name, prepended(head, source));
}

/** A descriptor read through the runtime's I/O threads: a FIFO's open and reads wait there, not on the event loop. */
async function openStream(path: string, name: string): Promise<ByteSource> {
  const fd =
    path === "-"
      ? 0
      : await new Promise<number>((resolve, reject) =>
          open(path, "r", (e, fd) => (e ? reject(new VqError(`${name}: cannot open: ${e.message}`, { cause: e })) : resolve(fd))),
        );
  await new Promise<void>((resolve, reject) =>
    fstat(fd, (e, s) => (e ? reject(new VqError(`${name}: ${e.message}`, { cause: e })) : s.isDirectory() ? reject(new VqError(`${name}: is a directory, not a video`)) : resolve())),
  );
  let open_ = true;
  return {
    read: (into) =>
      new Promise<number>((resolve, reject) => {
        if (!open_) return resolve(0);
        read(fd, into, 0, into.length, null, (e, n) => (e ? reject(new VqError(`${name}: cannot read: ${e.message}`, { cause: e })) : resolve(n)));
      }),
    close: async () => {
      if (!open_) return;
      open_ = false;
      // standard input stays open: it is the process's, not this reader's
      if (fd !== 0) close(fd, () => {});
    },
  };
}

function forgottenOnClose(source: ByteSource, key: string): ByteSource {
  return {
    read: (into) => source.read(into),
    close: async () => {
      opened.delete(key);
      await source.close();
    },
  };
}

/** `source` with `head` (bytes already read from it) in front again. */
function prepended(head: Uint8Array, source: ByteSource): ByteSource {
  let pending: Uint8Array | null = head;
  return {
    async read(into) {
      if (pending) {
        const n = Math.min(into.length, pending.length);
        into.set(pending.subarray(0, n));
        pending = n < pending.length ? pending.subarray(n) : null;
        return n;
      }
      return source.read(into);
    },
    close: () => source.close(),
  };
}
