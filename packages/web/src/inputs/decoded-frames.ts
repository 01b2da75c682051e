import { VqError } from "@vq/core";
import type { EncodedPacket } from "mediabunny";

/** Packets handed to the decoder and not yet decoded: enough to keep it busy, few enough to bound memory. */
const IN_FLIGHT = 4;

/**
 * WebCodecs' VideoDecoder as an async iterable of frames, in presentation order: packets
 * are fed while the decoder's queue is short, so memory stays bounded over any length. A
 * decoder error ends the iteration with a message naming the file and the frame; the
 * consumer closes each frame it takes (videoFrameReader does), what it did not take is
 * closed here.
 */
export async function* decodedFrames(name: string, config: VideoDecoderConfig, packets: AsyncIterator<EncodedPacket>): AsyncGenerator<VideoFrame> {
  const ready: VideoFrame[] = [];
  let failure: unknown;
  let flushed = false;
  let flushing = false;
  let ended = false;
  let wake: (() => void) | undefined;
  const signal = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  const decoder = new VideoDecoder({
    output: (frame) => {
      ready.push(frame);
      signal();
    },
    error: (e) => {
      failure ??= e;
      signal();
    },
  });
  // A decoded packet frees a place in the queue even when no frame comes out (reordering delay).
  decoder.addEventListener("dequeue", signal);
  let delivered = 0;
  try {
    decoder.configure(config);
    for (;;) {
      if (failure !== undefined) throw new VqError(`${name}: the video decoder failed after ${delivered} frame${delivered === 1 ? "" : "s"}: ${describe(failure)}`, { cause: failure });
      if (ready.length) {
        delivered++;
        yield ready.shift()!;
        continue;
      }
      if (flushed) return;
      if (!ended && decoder.decodeQueueSize < IN_FLIGHT) {
        const next = await packets.next();
        if (next.done) ended = true;
        else decoder.decode(next.value.toEncodedVideoChunk());
        continue;
      }
      if (ended && !flushing) {
        flushing = true;
        decoder.flush().then(
          () => {
            flushed = true;
            signal();
          },
          (e: unknown) => {
            failure ??= e;
            signal();
          },
        );
        continue;
      }
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    for (const f of ready) f.close();
    if (decoder.state !== "closed") decoder.close();
    await packets.return?.();
  }
}

function describe(e: unknown): string {
  return e instanceof Error ? `${e.name === "Error" ? "" : `${e.name}: `}${e.message}` : String(e);
}
