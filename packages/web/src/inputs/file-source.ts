import type { ByteSource } from "@vq/core";

/**
 * A browser File as a ByteSource: read in order through File.stream(), and at any offset
 * through Blob.slice (the size makes the Y4M reader's frame count and positional reads
 * available, as for a regular file on disk).
 */
export function fileSource(file: Blob): ByteSource {
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  let pending: Uint8Array | undefined;
  return {
    size: file.size,
    async read(into) {
      reader ??= file.stream().getReader();
      if (!pending?.length) {
        const { value, done } = await reader.read();
        if (done || !value) return 0;
        pending = value;
      }
      const n = Math.min(into.length, pending.length);
      into.set(pending.subarray(0, n));
      pending = pending.subarray(n);
      return n;
    },
    async readAt(into, position) {
      const bytes = new Uint8Array(await file.slice(position, position + into.length).arrayBuffer());
      into.set(bytes);
      return bytes.length;
    },
    async close() {
      await reader?.cancel().catch(() => {});
    },
  };
}
