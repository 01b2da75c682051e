import { closeSync, fstatSync, openSync, read } from "node:fs";
import { VqError } from "../errors.ts";

/** Sequential bytes: a file, a pipe or a web stream. */
export interface ByteSource {
  /** Reads up to `into.length` bytes; resolves 0 only at the end. */
  read(into: Uint8Array): Promise<number>;
  close(): Promise<void>;
  /** Total size when known up front (a regular file). */
  readonly size?: number;
  /** Reads up to `into.length` bytes at `position` without moving the stream (regular files). */
  readAt?(into: Uint8Array, position: number): Promise<number>;
  /** A regular file's descriptor, which a worker thread of this process may read at positions too (it stays the source's to close). */
  readonly fd?: number;
}

export async function openFileSource(path: string): Promise<ByteSource> {
  // A plain descriptor rather than a FileHandle: Bun turns a FileHandle that is
  // garbage-collected unclosed into an uncaught error, and an fd is closed explicitly anyway.
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (e) {
    throw new VqError(`${path}: ${describeOpenError(e)}`, { cause: e });
  }
  const stat = fstatSync(fd);
  if (stat.isDirectory()) {
    closeSync(fd);
    throw new VqError(`${path}: is a directory, not a video file`);
  }
  let open = true;
  const pread = (into: Uint8Array, position: number | null) => (open ? readDescriptor(fd, path, into, position) : Promise.resolve(0));
  return {
    size: stat.isFile() ? stat.size : undefined,
    fd: stat.isFile() ? fd : undefined,
    readAt: stat.isFile() ? (into, position) => pread(into, position) : undefined,
    read: (into) => pread(into, null),
    close: async () => {
      if (open) {
        open = false;
        closeSync(fd);
      }
    },
  };
}

function readDescriptor(fd: number, name: string, into: Uint8Array, position: number | null): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    read(fd, into, 0, into.length, position, (err, bytesRead) => {
      if (err) reject(new VqError(`${name}: ${describeOpenError(err)}`, { cause: err }));
      else resolve(bytesRead);
    });
  });
}

/**
 * Positional reads of a file another thread of this process opened (its `fd`): a worker
 * reading its own frames. Closing it leaves the descriptor to its owner.
 */
export function sharedFileSource(fd: number, name: string): ByteSource {
  return { readAt: (into, position) => readDescriptor(fd, name, into, position), read: async () => 0, close: async () => {} };
}

function describeOpenError(e: unknown): string {
  const code = (e as { code?: string })?.code;
  switch (code) {
    case "ENOENT":
      return "no such file";
    case "EACCES":
    case "EPERM":
      return "permission denied";
    case "EISDIR":
      return "is a directory, not a video file";
    default:
      return e instanceof Error ? e.message : String(e);
  }
}

/** A source over a web ReadableStream (fetch bodies, browser files, Deno and Bun pipes). */
export function streamSource(stream: ReadableStream<Uint8Array>): ByteSource {
  const reader = stream.getReader();
  let pending: Uint8Array | null = null;
  return {
    async read(into) {
      if (!pending || pending.length === 0) {
        const { value, done } = await reader.read();
        if (done || !value) return 0;
        pending = value;
      }
      const n = Math.min(into.length, pending.length);
      into.set(pending.subarray(0, n));
      pending = pending.subarray(n);
      return n;
    },
    async close() {
      await reader.cancel().catch(() => {});
    },
  };
}

/**
 * Buffered reading on top of a ByteSource: lines for headers, exact-length reads for
 * frame payloads (which bypass the buffer once it is drained, so a frame is copied once).
 */
export class BufferedReader {
  private readonly buf = new Uint8Array(1 << 16);
  private start = 0;
  private end = 0;
  /** Bytes consumed so far. */
  position = 0;

  constructor(readonly source: ByteSource) {}

  private async fill(): Promise<boolean> {
    if (this.start < this.end) return true;
    this.start = 0;
    this.end = await this.source.read(this.buf);
    return this.end > 0;
  }

  /** Reads through the next '\n' (not included). Returns null at a clean end of input. */
  async readLine(maxLength: number): Promise<string | null> {
    const bytes: number[] = [];
    for (;;) {
      if (!(await this.fill())) {
        if (bytes.length === 0) return null;
        return String.fromCharCode(...bytes);
      }
      while (this.start < this.end) {
        const c = this.buf[this.start++]!;
        this.position++;
        if (c === 0x0a) return String.fromCharCode(...bytes);
        bytes.push(c);
        if (bytes.length > maxLength) return String.fromCharCode(...bytes);
      }
    }
  }

  /** Fills `into` completely; returns how many bytes were read (less only at the end of input). */
  async readExact(into: Uint8Array): Promise<number> {
    let done = 0;
    const buffered = Math.min(this.end - this.start, into.length);
    if (buffered > 0) {
      into.set(this.buf.subarray(this.start, this.start + buffered));
      this.start += buffered;
      done = buffered;
    }
    while (done < into.length) {
      const n = await this.source.read(into.subarray(done));
      if (n === 0) break;
      done += n;
    }
    this.position += done;
    return done;
  }

  /** True when no byte is left. */
  async atEnd(): Promise<boolean> {
    return !(await this.fill());
  }

  close(): Promise<void> {
    return this.source.close();
  }
}
