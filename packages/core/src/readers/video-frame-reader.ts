import { VqError } from "../errors.ts";
import { checkPictureSize } from "../limits.ts";
import { describeFormat, packedLayout, Picture, type PictureFormat, type PixelFormat } from "../picture.ts";
import { FrameBufferPool, type VideoReader } from "./video-reader.ts";

/** A rectangle as WebCodecs gives it. */
export interface FrameRect {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** Where `copyTo` puts one plane (WebCodecs' PlaneLayout). */
export interface CopyPlaneLayout {
  offset: number;
  stride: number;
}

/**
 * The part of WebCodecs' `VideoFrame` that vq reads. Structural, so the browser's class
 * fits it as it is, and so do decoders' frames that copy out the same way.
 */
export interface VideoFrameLike {
  readonly format: string | null;
  readonly codedWidth: number;
  readonly codedHeight: number;
  readonly visibleRect: FrameRect | null;
  copyTo(destination: Uint8Array, options?: { rect?: FrameRect; layout?: CopyPlaneLayout[] }): Promise<unknown>;
  close(): void;
}

/** WebCodecs pixel formats vq scores, as vq's picture formats; `planes` is how many planes copyTo writes. */
const FORMATS: Record<string, { pixelFormat: PixelFormat; bitDepth: number; planes: number }> = {
  I420: { pixelFormat: "420", bitDepth: 8, planes: 3 },
  I420A: { pixelFormat: "420", bitDepth: 8, planes: 4 },
  I420P10: { pixelFormat: "420", bitDepth: 10, planes: 3 },
  I420AP10: { pixelFormat: "420", bitDepth: 10, planes: 4 },
  I420P12: { pixelFormat: "420", bitDepth: 12, planes: 3 },
  I422: { pixelFormat: "422", bitDepth: 8, planes: 3 },
  I422A: { pixelFormat: "422", bitDepth: 8, planes: 4 },
  I422P10: { pixelFormat: "422", bitDepth: 10, planes: 3 },
  I422AP10: { pixelFormat: "422", bitDepth: 10, planes: 4 },
  I422P12: { pixelFormat: "422", bitDepth: 12, planes: 3 },
  I444: { pixelFormat: "444", bitDepth: 8, planes: 3 },
  I444A: { pixelFormat: "444", bitDepth: 8, planes: 4 },
  I444P10: { pixelFormat: "444", bitDepth: 10, planes: 3 },
  I444AP10: { pixelFormat: "444", bitDepth: 10, planes: 4 },
  I444P12: { pixelFormat: "444", bitDepth: 12, planes: 3 },
  NV12: { pixelFormat: "420", bitDepth: 8, planes: 2 },
};

function formatOf(name: string, index: number, frame: VideoFrameLike): { format: PictureFormat; source: string; planes: number } {
  const known = frame.format === null ? undefined : FORMATS[frame.format];
  if (!known) {
    const what = frame.format === null ? "has no readable pixel format (an opaque, GPU-backed frame)" : `is ${frame.format}`;
    throw new VqError(`${name}: frame ${index} ${what}; vq scores YUV frames: ${Object.keys(FORMATS).join(", ")} (draw RGB content through a YUV encoder or convert it first)`);
  }
  const rect = frame.visibleRect ?? { x: 0, y: 0, width: frame.codedWidth, height: frame.codedHeight };
  if (!Number.isInteger(rect.width) || !Number.isInteger(rect.height) || rect.width < 1 || rect.height < 1) {
    throw new VqError(`${name}: frame ${index}: invalid picture size ${String(rect.width)}x${String(rect.height)} (visible rect or coded size)`);
  }
  checkPictureSize(`${name}: frame ${index}`, rect.width, rect.height);
  return { format: { width: rect.width, height: rect.height, bitDepth: known.bitDepth, pixelFormat: known.pixelFormat }, source: frame.format!, planes: known.planes };
}

/**
 * Frames from WebCodecs (`VideoDecoder` output, `new VideoFrame(...)`), for browsers and
 * any runtime that has them. The reader owns the frames: each is closed once copied.
 * Every frame must have the first one's pixel format and visible size.
 */
export async function videoFrameReader(name: string, frames: AsyncIterable<VideoFrameLike> | Iterable<VideoFrameLike>): Promise<VideoReader> {
  const iterator = Symbol.asyncIterator in frames ? frames[Symbol.asyncIterator]() : (frames as Iterable<VideoFrameLike>)[Symbol.iterator]();
  const first = await iterator.next();
  if (first.done) throw new VqError(`${name}: no frames`);
  let described: ReturnType<typeof formatOf>;
  try {
    described = formatOf(name, 0, first.value);
  } catch (e) {
    // The reader owns the frame it took: refused, it is closed here (the caller never gets a reader to close).
    first.value.close();
    await (iterator as AsyncIterator<unknown>).return?.();
    throw e;
  }
  const { format, source, planes: planeCount } = described;
  const { planes, byteLength } = packedLayout(format);
  const bps = format.bitDepth > 8 ? 2 : 1;
  let pending: VideoFrameLike | undefined = first.value;
  let index = 0;
  // Word-padded like every Picture (the GPU path uploads whole 32-bit words); released pictures come back.
  const pool = new FrameBufferPool(Math.ceil(byteLength / 4) * 4);
  // What copyTo writes besides vq's planes: NV12's interleaved chroma, or an alpha plane. Made once.
  let scratch: Uint8Array | undefined;

  async function toPicture(frame: VideoFrameLike): Promise<Picture> {
    const own = formatOf(name, index, frame);
    if (own.source !== source || own.format.width !== format.width || own.format.height !== format.height) {
      throw new VqError(`${name}: frame ${index} is ${own.source} ${describeFormat(own.format)}; frame 0 was ${source} ${describeFormat(format)}`);
    }
    const buffer = pool.take();
    const rect = frame.visibleRect ?? undefined;
    if (source === "NV12") {
      // Interleaved chroma: copy luma and the UV plane, then split UV into vq's two planes.
      const uv = planes[1]!;
      scratch ??= new Uint8Array(planes[0]!.stride * planes[0]!.height + uv.width * 2 * uv.height);
      await frame.copyTo(scratch, { rect, layout: [{ offset: 0, stride: planes[0]!.stride }, { offset: planes[0]!.stride * planes[0]!.height, stride: uv.width * 2 }] });
      buffer.set(scratch.subarray(0, uv.offset));
      const interleaved = scratch.subarray(uv.offset);
      const u = buffer.subarray(uv.offset, uv.offset + uv.width * uv.height);
      const v = buffer.subarray(planes[2]!.offset, planes[2]!.offset + uv.width * uv.height);
      for (let i = 0; i < u.length; i++) {
        u[i] = interleaved[2 * i]!;
        v[i] = interleaved[2 * i + 1]!;
      }
    } else {
      const layout = planes.map((p) => ({ offset: p.offset, stride: p.stride * bps }));
      // Alpha is not scored: it lands after the picture, in a larger buffer.
      let target = buffer;
      if (planeCount === 4) {
        layout.push({ offset: byteLength, stride: format.width * bps });
        target = scratch ??= new Uint8Array(byteLength + format.width * bps * format.height);
      }
      await frame.copyTo(target, { rect, layout });
      if (target !== buffer) buffer.set(target.subarray(0, byteLength));
    }
    index++;
    return new Picture(format, buffer, planes);
  }

  return {
    name,
    format,
    async read() {
      let frame = pending;
      pending = undefined;
      if (!frame) {
        const next = await iterator.next();
        if (next.done) return null;
        frame = next.value;
      }
      try {
        return await toPicture(frame);
      } catch (e) {
        if (e instanceof VqError) throw e;
        throw new VqError(`${name}: frame ${index}: copying the VideoFrame failed: ${(e as Error).message}`, { cause: e });
      } finally {
        frame.close();
      }
    },
    release(picture) {
      pool.give(picture.buffer);
    },
    async close() {
      pending?.close();
      await (iterator as AsyncIterator<unknown>).return?.();
    },
  };
}
