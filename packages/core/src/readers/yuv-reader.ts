import { BufferedReader, openFileSource, type ByteSource } from "./byte-source.ts";
import { VqError } from "../errors.ts";
import { checkPictureSize } from "../limits.ts";
import { alignUp, describeFormat, packedLayout, Picture, validateFormat, type PictureFormat, type PlaneLayout } from "../picture.ts";
import { positionalFrameFile } from "./frame-file.ts";
import { FrameBufferPool, type FrameFile, type VideoReader } from "./video-reader.ts";

/** Reads raw planar YUV (no header): the caller gives size, pixel format and bit depth. */
export class RawYuvReader implements VideoReader {
  readonly frameCount?: number;
  readonly frameFile?: FrameFile;
  private readonly layouts: PlaneLayout[];
  private readonly frameBytes: number;
  private readonly pool: FrameBufferPool;
  private index = 0;

  private constructor(readonly name: string, private readonly input: BufferedReader, readonly format: PictureFormat, size?: number) {
    const { planes, byteLength } = packedLayout(format);
    this.layouts = planes;
    this.frameBytes = byteLength;
    this.pool = new FrameBufferPool(alignUp(byteLength, 4));
    if (size !== undefined) {
      if (size % byteLength !== 0) {
        throw new VqError(
          `${name}: raw YUV size ${size} bytes is not a whole number of ${describeFormat(format)} frames (${byteLength} bytes each; ${Math.floor(size / byteLength)} frames and ${size % byteLength} bytes left over)`,
        );
      }
      this.frameCount = size / byteLength;
      this.frameFile = positionalFrameFile(name, input.source, { firstFrameAt: 0, frameSpacing: byteLength, frameBytes: byteLength, frameCount: this.frameCount, y4mMarkers: false });
    }
  }

  static async open(path: string, format: PictureFormat): Promise<RawYuvReader> {
    return RawYuvReader.fromSource(path, await openFileSource(path), format);
  }

  static async fromSource(name: string, source: ByteSource, format: PictureFormat): Promise<RawYuvReader> {
    try {
      validateFormat(format);
      checkPictureSize(name, format.width, format.height);
      return new RawYuvReader(name, new BufferedReader(source), format, source.size);
    } catch (e) {
      await source.close();
      throw e;
    }
  }

  async read(): Promise<Picture | null> {
    const buffer = this.pool.take();
    const got = await this.input.readExact(buffer.subarray(0, this.frameBytes));
    if (got === 0) {
      this.pool.give(buffer);
      if (this.frameCount !== undefined && this.index < this.frameCount) throw new VqError(`${this.name}: frame ${this.index}: the file ended early (its size promised ${this.frameCount} frames); was it changed while vq read it?`);
      return null;
    }
    if (got < this.frameBytes) {
      this.pool.give(buffer);
      throw new VqError(`${this.name}: frame ${this.index} is truncated: ${got} of ${this.frameBytes} bytes (is the size, pixel format or bit depth right?)`);
    }
    this.index++;
    return new Picture(this.format, buffer, this.layouts);
  }

  release(picture: Picture): void {
    this.pool.give(picture.buffer);
  }

  close(): Promise<void> {
    return this.input.close();
  }
}
