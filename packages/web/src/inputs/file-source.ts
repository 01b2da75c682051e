import { streamSource, type ByteSource } from "@vq/core";

/**
 * A browser File as a ByteSource: read in order through File.stream() (core's stream
 * source), and at any offset through Blob.slice (the size makes the Y4M reader's frame count
 * and positional reads available, as for a regular file on disk).
 */
export function fileSource(file: Blob): ByteSource {
  return {
    ...streamSource(file.stream()),
    size: file.size,
    async readAt(into, position) {
      const bytes = new Uint8Array(await file.slice(position, position + into.length).arrayBuffer());
      into.set(bytes);
      return bytes.length;
    },
  };
}
