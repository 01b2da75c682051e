import { VqError, videoFrameReader, type VideoReader } from "@vq/core";
import { BlobSource, EncodedPacketSink, Input, MATROSKA, MP4, QTFF, WEBM } from "mediabunny";
import { decodedFrames } from "./decoded-frames.ts";

/** What the page says it reads besides Y4M. */
export const CONTAINERS = "MP4, MOV, WebM, MKV";
/** The video containers only: mediabunny's audio, HLS and MPEG-TS readers stay out of the bundle. */
const FORMATS = [MP4, QTFF, WEBM, MATROSKA];

/** A decoded container's frames, and its frame rate as estimated from packet timestamps. */
export interface ContainerReader extends VideoReader {
  readonly rateEstimate?: { num: number; den: number };
}

/**
 * A container file (MP4, MOV, WebM, MKV, ...) demuxed by mediabunny, its first video track
 * decoded by WebCodecs (a hardware decoder where the browser has one), frames copied out
 * as YUV planes with their exact values by videoFrameReader (no RGB conversion).
 */
export async function containerReader(file: File): Promise<ContainerReader> {
  const name = file.name;
  if (typeof VideoDecoder === "undefined") throw new VqError(`${name}: this browser has no WebCodecs VideoDecoder; use a Chromium-based browser, or give Y4M files`);
  const input = new Input({ source: new BlobSource(file), formats: FORMATS });
  try {
    if (!(await input.canRead().catch(() => false))) throw new VqError(`${name}: not a video file this page can read (Y4M, ${CONTAINERS})`);
    const track = await input.getPrimaryVideoTrack();
    if (!track) throw new VqError(`${name}: the file has no video track`);
    const codec = await track.getCodec();
    const config = await track.getDecoderConfig();
    if (!codec || !config) throw new VqError(`${name}: its video codec is not one the page knows how to decode`);
    const support = await VideoDecoder.isConfigSupported(config).catch(() => ({ supported: false }));
    if (!support.supported) {
      throw new VqError(`${name}: this browser cannot decode its ${codec} video (${config.codec}): WebCodecs' isConfigSupported says no; convert it to Y4M, or to a codec and profile the browser decodes`);
    }
    const stats = await track.computePacketStats().catch(() => undefined);
    const frames = decodedFrames(name, config, new EncodedPacketSink(track).packets());
    const reader = await videoFrameReader(name, frames);
    // The rate from packet timestamps is an estimate (WebM's are whole milliseconds: 24 fps
    // reads 24.064 over 3 frames): fine for a bitrate, not for refusing inputs whose rates
    // "differ", so the reader itself reports none.
    const rateEstimate = stats && stats.averagePacketRate > 0 ? { num: Math.round(stats.averagePacketRate * 1000), den: 1000 } : undefined;
    return {
      name,
      format: reader.format,
      frameCount: stats?.packetCount,
      rateEstimate,
      read: () => reader.read(),
      release: (p) => reader.release(p),
      async close() {
        await reader.close();
        input.dispose();
      },
    };
  } catch (e) {
    input.dispose();
    throw e;
  }
}
