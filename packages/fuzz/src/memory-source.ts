import type { ByteSource } from "@vq/core";

/**
 * Bytes in memory as a reader's source: a regular file (size and positional reads) or a
 * pipe (neither), whose reads may come in small pieces, as a pipe's do.
 */
export function memorySource(bytes: Uint8Array, kind: "file" | "pipe", piece = Infinity): ByteSource {
  let at = 0;
  let closed = false;
  const copy = (into: Uint8Array, from: number) => {
    if (closed || from >= bytes.length) return 0;
    const n = Math.min(into.length, bytes.length - from, piece);
    into.set(bytes.subarray(from, from + n));
    return n;
  };
  const source: ByteSource = {
    read: async (into) => {
      const n = copy(into, at);
      at += n;
      return n;
    },
    close: async () => {
      closed = true;
    },
  };
  if (kind === "pipe") return source;
  return { ...source, size: bytes.length, readAt: async (into, position) => copy(into, position) };
}
