import { VqError } from "../errors.ts";
import { describeFormat, packedLayout, Picture, type PictureFormat } from "../picture.ts";
import type { VideoReader } from "./video-reader.ts";

/**
 * Frames already in memory (typed arrays in Y4M layout: planes back to back), from any
 * iterable or async iterable: decoded frames of a program, a canvas, a test.
 */
export function memoryReader(name: string, format: PictureFormat, frames: Iterable<Uint8Array | Uint16Array> | AsyncIterable<Uint8Array | Uint16Array>): VideoReader {
  const { planes, byteLength } = packedLayout(format);
  const iterator = Symbol.asyncIterator in frames ? frames[Symbol.asyncIterator]() : (frames as Iterable<Uint8Array | Uint16Array>)[Symbol.iterator]();
  let index = 0;
  return {
    name,
    format,
    async read() {
      const next = await iterator.next();
      if (next.done) return null;
      const bytes = new Uint8Array(next.value.buffer, next.value.byteOffset, next.value.byteLength);
      if (bytes.byteLength !== byteLength) {
        throw new VqError(`${name}: frame ${index} has ${bytes.byteLength} bytes; a ${describeFormat(format)} frame has ${byteLength}`);
      }
      index++;
      // Copied into a word-padded buffer: the GPU path uploads whole 32-bit words.
      const buffer = new Uint8Array(Math.ceil(byteLength / 4) * 4);
      buffer.set(bytes);
      return new Picture(format, buffer, planes);
    },
    release() {},
    async close() {
      await (iterator as AsyncIterator<unknown>).return?.();
    },
  };
}
