import { Picture } from "../picture.ts";
import type { VideoReader } from "./video-reader.ts";

/**
 * A reader's pictures as their luma planes alone (4:0:0, over the same buffers: nothing is
 * copied). How an input that ffmpeg could not decode to luma alone joins a run whose
 * extractors read luma only (adr/0043-luma-only-decoding.md).
 */
export function lumaView(reader: VideoReader): VideoReader {
  if (reader.format.pixelFormat === "400") return reader;
  const format = { ...reader.format, pixelFormat: "400" as const };
  const whole = new WeakMap<Picture, Picture>();
  return {
    name: reader.name,
    format,
    sourceFormat: reader.sourceFormat ?? reader.format,
    frameRate: reader.frameRate,
    frameCount: reader.frameCount,
    async read() {
      const picture = await reader.read();
      if (!picture) return null;
      const luma = new Picture(format, picture.buffer, [picture.planes[0]!]);
      whole.set(luma, picture);
      return luma;
    },
    release(luma) {
      const picture = whole.get(luma);
      if (picture) reader.release(picture);
    },
    close: () => reader.close(),
  };
}
