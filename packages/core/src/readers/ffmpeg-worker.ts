// A decoder worker: one ffmpeg input decoded and its pipe read on this thread, its frames
// handed to the thread that started it (transferred, no copy) a few frames ahead
// (adr/0041-threads-read-their-frames.md).
import { isVqError } from "../errors.ts";
import { serveWorker, type WorkerChannel } from "../extraction/worker-thread.ts";
import { Picture } from "../picture.ts";
import type { FromDecoder, ToDecoder } from "./decoder-protocol.ts";
import { decodeInThisThread, type DecodingReader } from "./ffmpeg-reader.ts";

/** Frames read ahead and not yet handed back: enough to keep the pipe flowing while one is scored. */
const AHEAD = 4;

let reader: DecodingReader | undefined;
let out: WorkerChannel<FromDecoder> | undefined;
let ahead = 0;
let reading = false;
let done = false;

function failed(e: unknown): void {
  done = true;
  out?.post({ type: "error", message: e instanceof Error ? e.message : String(e), user: isVqError(e) });
}

async function pump(): Promise<void> {
  if (reading) return;
  reading = true;
  try {
    while (!done && ahead < AHEAD) {
      const p = await reader!.read();
      if (!p) {
        done = true;
        out!.post({ type: "end" });
        break;
      }
      ahead++;
      const buffer = p.buffer.buffer as ArrayBuffer;
      out!.post({ type: "frame", buffer }, [buffer]);
    }
  } catch (e) {
    failed(e);
  } finally {
    reading = false;
  }
}

serveWorker<ToDecoder, FromDecoder>((m, reply) => {
  out = reply;
  switch (m.type) {
    case "open":
      decodeInThisThread(m.path, m.options).then((r) => {
        reader = r;
        reply.post({ type: "opened", format: r.format, sourceFormat: r.sourceFormat, frameRate: r.frameRate, frameCount: r.frameCount, pid: r.pid });
        void pump();
      }, failed);
      break;
    case "release":
      ahead--;
      reader?.release(new Picture(reader.format, new Uint8Array(m.buffer)));
      void pump();
      break;
    case "close":
      done = true;
      // answered once ffmpeg has gone (reaped here): the worker may be ended then
      void (async () => {
        await reader?.close();
        await reader?.exited;
      })().finally(() => reply.post({ type: "closed" }));
      break;
  }
});
