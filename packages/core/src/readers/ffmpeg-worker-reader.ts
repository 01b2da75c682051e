import { VqError } from "../errors.ts";
import { startWorker } from "../extraction/worker-thread.ts";
import { Picture } from "../picture.ts";
import type { ChildProcess } from "./child-processes.ts";
import { trackChildProcess } from "./child-processes.ts";
import type { FromDecoder, ToDecoder } from "./decoder-protocol.ts";
import type { DecodingReader, FfmpegOptions } from "./ffmpeg-reader.ts";

type Item = { frame: ArrayBuffer } | { end: true } | { error: Error };

/**
 * openWithFfmpeg with the decoder's pipe read on a worker thread (ffmpeg-worker.ts): the
 * bytes of each frame are taken from the pipe there, a few frames ahead, and arrive here
 * as transferred buffers, so two inputs' pipes are read at once and this thread is left
 * to score (adr/0041-threads-read-their-frames.md).
 */
export async function openFfmpegWorker(path: string, options: FfmpegOptions): Promise<DecodingReader> {
  const items: Item[] = [];
  let waiter: ((item: Item) => void) | undefined;
  let opened: { resolve: (m: Extract<FromDecoder, { type: "opened" }>) => void; reject: (e: Error) => void } | undefined;
  let closed: (() => void) | undefined;
  let finished = false;
  /** The worker failed outside the protocol (it exited, it threw): it answers nothing more. */
  let dead = false;
  const exitListeners: (() => void)[] = [];
  const give = (item: Item) => {
    if (waiter) {
      const w = waiter;
      waiter = undefined;
      w(item);
    } else items.push(item);
  };
  const fail = (error: Error) => {
    opened?.reject(error);
    opened = undefined;
    give({ error });
    closed?.();
  };
  const worker = await startWorker<FromDecoder, ToDecoder>(new URL("./ffmpeg-worker.ts", import.meta.url), {
    message(m) {
      if (m.type === "opened") opened?.resolve(m);
      else if (m.type === "frame") give({ frame: m.buffer });
      else if (m.type === "end") give({ end: true });
      else if (m.type === "closed") closed?.();
      else if (m.type === "error") fail(m.user ? new VqError(m.message) : new Error(m.message));
    },
    error: (e) => {
      dead = true;
      fail(e);
    },
  });
  const ended = () => {
    finished = true;
    for (const l of exitListeners.splice(0)) l();
  };
  let info: Extract<FromDecoder, { type: "opened" }>;
  try {
    info = await new Promise((resolve, reject) => {
      opened = { resolve, reject };
      worker.post({ type: "open", path, options });
    });
  } catch (e) {
    worker.terminate();
    throw e;
  }
  // The decoder runs in the worker; vq's exit (a signal, an error) still kills it, by its id.
  if (info.pid !== undefined) {
    const pid = info.pid;
    const child: ChildProcess = {
      get exitCode() {
        return finished ? 0 : null;
      },
      signalCode: null,
      kill(signal) {
        try {
          return process.kill(pid, signal);
        } catch {
          return false;
        }
      },
      once(_event, listener) {
        exitListeners.push(listener);
        return undefined;
      },
    };
    trackChildProcess(child);
  }
  const next = () => (items.length ? Promise.resolve(items.shift()!) : new Promise<Item>((resolve) => (waiter = resolve)));
  let atEnd = false;
  return {
    name: path,
    format: info.format,
    sourceFormat: info.sourceFormat,
    frameRate: info.frameRate,
    frameCount: info.frameCount,
    async read(): Promise<Picture | null> {
      if (atEnd) return null;
      const item = await next();
      if ("error" in item) {
        items.unshift(item); // every later read fails the same way
        throw item.error;
      }
      if ("end" in item) {
        atEnd = true;
        ended();
        return null;
      }
      return new Picture(info.format, new Uint8Array(item.frame));
    },
    release(picture) {
      const buffer = picture.buffer.buffer as ArrayBuffer;
      worker.post({ type: "release", buffer }, [buffer]);
    },
    async close() {
      // the worker stops ffmpeg (SIGTERM, as a reader in this thread would), then goes
      if (!dead) {
        await new Promise<void>((resolve) => {
          closed = resolve;
          worker.post({ type: "close" });
        });
      }
      worker.terminate();
      ended();
    },
  };
}
