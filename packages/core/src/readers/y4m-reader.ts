import { BufferedReader, openFileSource, type ByteSource } from "./byte-source.ts";
import { VqError } from "../errors.ts";
import { checkPictureSize } from "../limits.ts";
import { alignUp, describeFormat, packedLayout, Picture, type PictureFormat, type PixelFormat, type PlaneLayout } from "../picture.ts";
import { positionalFrameFile } from "./frame-file.ts";
import { FrameBufferPool, type FrameFile, type VideoReader } from "./video-reader.ts";

interface ColourSpace {
  pixelFormat: PixelFormat;
  bitDepth: number;
  /** Bytes of an extra plane stored after Y, Cb, Cr that vq skips (444alpha's alpha). */
  extraPlanes?: number;
}

const CHROMA_SITINGS: Record<string, PixelFormat> = {
  "420": "420",
  "420jpeg": "420",
  "420mpeg2": "420",
  "420paldv": "420",
  "422": "422",
  "444": "444",
  mono: "400",
};

/**
 * Y4M `C` tags: libvmaf's (420, 420jpeg, 420mpeg2, 420paldv, 422, 444, 444alpha, mono,
 * 420p10/12, 422p10/12, 444p10/12) plus the deeper ones ffmpeg writes (p9 to p16, monoN).
 * Chroma siting variants are read as plain planes: siting does not change the samples.
 */
export function parseColourSpace(tag: string): ColourSpace | null {
  if (tag in CHROMA_SITINGS) return { pixelFormat: CHROMA_SITINGS[tag]!, bitDepth: 8 };
  if (tag === "444alpha") return { pixelFormat: "444", bitDepth: 8, extraPlanes: 1 };
  const deep = /^(420|422|444)p(9|10|12|14|16)$/.exec(tag);
  if (deep) return { pixelFormat: deep[1] as PixelFormat, bitDepth: Number(deep[2]) };
  const mono = /^mono(9|10|12|14|16)$/.exec(tag);
  if (mono) return { pixelFormat: "400", bitDepth: Number(mono[1]) };
  return null;
}

const MAX_HEADER = 4096;

export interface Y4mHeader {
  format: PictureFormat;
  frameRate?: { num: number; den: number };
  extraBytesPerFrame: number;
}

export function parseY4mHeader(name: string, line: string): Y4mHeader {
  if (!line.startsWith("YUV4MPEG2")) {
    throw new VqError(`${name}: not a Y4M file (it does not start with "YUV4MPEG2")`);
  }
  if (line.length > MAX_HEADER) throw new VqError(`${name}: Y4M header longer than ${MAX_HEADER} bytes`);
  let width: number | undefined;
  let height: number | undefined;
  let frameRate: { num: number; den: number } | undefined;
  let colour: ColourSpace = { pixelFormat: "420", bitDepth: 8 };
  for (const tag of line.slice(9).split(" ").filter(Boolean)) {
    const value = tag.slice(1);
    switch (tag[0]) {
      case "W":
        width = parsePositive(name, "W (width)", value);
        break;
      case "H":
        height = parsePositive(name, "H (height)", value);
        break;
      case "F": {
        const m = /^(\d+):(\d+)$/.exec(value);
        if (!m) throw new VqError(`${name}: Y4M header: bad F (frame rate) tag "${excerpt(tag)}"`);
        // F0:0 is the format's "unknown"
        frameRate = Number(m[1]) && Number(m[2]) ? { num: Number(m[1]), den: Number(m[2]) } : undefined;
        break;
      }
      case "I":
        if (value !== "p" && value !== "?") {
          throw new VqError(`${name}: Y4M header: interlaced video (I${excerpt(value)}) is not supported; deinterlace it first`);
        }
        break;
      case "C": {
        const c = parseColourSpace(value);
        if (!c) {
          throw new VqError(
            `${name}: Y4M header: unsupported colour space "C${excerpt(value)}" (supported: 420, 420jpeg, 420mpeg2, 420paldv, 422, 444, 444alpha, mono, 420p9..16, 422p9..16, 444p9..16, mono9..16)`,
          );
        }
        colour = c;
        break;
      }
      default:
        break; // A, X and unknown tags carry nothing vq needs
    }
  }
  if (width === undefined) throw new VqError(`${name}: Y4M header has no W (width) tag`);
  if (height === undefined) throw new VqError(`${name}: Y4M header has no H (height) tag`);
  checkPictureSize(name, width, height);
  const format: PictureFormat = { width, height, bitDepth: colour.bitDepth, pixelFormat: colour.pixelFormat };
  const extraBytesPerFrame = (colour.extraPlanes ?? 0) * width * height * (colour.bitDepth > 8 ? 2 : 1);
  return { format, frameRate, extraBytesPerFrame };
}

function parsePositive(name: string, what: string, value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 65536) {
    throw new VqError(`${name}: Y4M header: bad ${what} "${excerpt(value)}" (1 to 65536)`);
  }
  return Number(value);
}

/** Streams a Y4M file frame by frame; memory stays constant over any number of frames. */
export class Y4mReader implements VideoReader {
  readonly format: PictureFormat;
  /** From the file size, when every frame marker is a plain "FRAME\n" (the usual case). */
  readonly frameCount?: number;
  readonly frameRate?: { num: number; den: number };
  readonly frameFile?: FrameFile;
  private readonly layouts: PlaneLayout[];
  private readonly frameBytes: number;
  private readonly pool: FrameBufferPool;
  private readonly skip: Uint8Array;
  private index = 0;

  private constructor(readonly name: string, private readonly input: BufferedReader, header: Y4mHeader, headerBytes: number) {
    this.format = header.format;
    this.frameRate = header.frameRate;
    const { planes, byteLength } = packedLayout(this.format);
    this.layouts = planes;
    this.frameBytes = byteLength;
    // Padded to whole 32-bit words so a frame buffer can be copied to the GPU as is.
    this.pool = new FrameBufferPool(alignUp(byteLength, 4));
    this.skip = new Uint8Array(header.extraBytesPerFrame);
    const size = input.source.size;
    const perFrame = 6 + byteLength + header.extraBytesPerFrame;
    // Before anything is allocated for the claimed size: a header is cheap to write, frames are not.
    if (size !== undefined && size > headerBytes && size - headerBytes < perFrame) {
      throw new VqError(`${name}: frame 0 is truncated: the file holds ${size - headerBytes} bytes after its header, one ${describeFormat(this.format)} frame takes ${perFrame}`);
    }
    if (size !== undefined && (size - headerBytes) % perFrame === 0) {
      const frameCount = (size - headerBytes) / perFrame;
      this.frameCount = frameCount;
      this.frameFile = positionalFrameFile(name, input.source, { firstFrameAt: headerBytes + 6, frameSpacing: perFrame, frameBytes: byteLength, frameCount, y4mMarkers: true });
    }
  }

  static async open(path: string): Promise<Y4mReader> {
    return Y4mReader.fromSource(path, await openFileSource(path));
  }

  static async fromSource(name: string, source: ByteSource): Promise<Y4mReader> {
    const input = new BufferedReader(source);
    try {
      const line = await input.readLine(MAX_HEADER);
      if (line === null) throw new VqError(`${name}: empty file, not a Y4M file`);
      return new Y4mReader(name, input, parseY4mHeader(name, line), input.position);
    } catch (e) {
      await input.close();
      throw e;
    }
  }

  async read(): Promise<Picture | null> {
    const marker = await this.input.readLine(256);
    if (marker === null) {
      // the file's size at the start promised more: it shrank while being read
      if (this.frameCount !== undefined && this.index < this.frameCount) throw new VqError(`${this.name}: frame ${this.index}: the file ended early (its size promised ${this.frameCount} frames); was it changed while vq read it?`);
      return null;
    }
    if (!marker.startsWith("FRAME")) {
      throw new VqError(`${this.name}: frame ${this.index}: expected a FRAME marker at byte ${this.input.position - marker.length - 1}, found "${excerpt(marker, 16)}"`);
    }
    const buffer = this.pool.take();
    const got = await this.input.readExact(buffer.subarray(0, this.frameBytes));
    if (got < this.frameBytes) {
      this.pool.give(buffer);
      throw new VqError(`${this.name}: frame ${this.index} is truncated: ${got} of ${this.frameBytes} bytes`);
    }
    if (this.skip.length && (await this.input.readExact(this.skip)) < this.skip.length) {
      this.pool.give(buffer);
      throw new VqError(`${this.name}: frame ${this.index} is truncated in its alpha plane`);
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

/** The start of an input's text quoted in a message (VqError escapes its control bytes). */
function excerpt(s: string, max = 32): string {
  return s.length <= max ? s : `${s.slice(0, max)}...`;
}
