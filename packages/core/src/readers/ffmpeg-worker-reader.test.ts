import { afterAll, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { goldenPath } from "../golden.ts";
import { isVqError } from "../errors.ts";
import { openWithFfmpeg } from "./ffmpeg-reader.ts";
import type { VideoReader } from "./video-reader.ts";

// ffmpeg's pipe read on a worker thread per input (adr/0041-threads-read-their-frames.md):
// the same frames as read on the calling thread, the same one-line errors, no ffmpeg left.
const dir = mkdtempSync(join(tmpdir(), "vq-ffmpeg-worker-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const mkv = join(dir, "clip.mkv");
execFileSync("ffmpeg", ["-v", "error", "-nostdin", "-y", "-i", goldenPath("vectors/odd_321x241_444.x264crf32.y4m"), "-c:v", "libx264", "-crf", "20", mkv]);

async function frames(reader: VideoReader): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  try {
    for (let p = await reader.read(); p; p = await reader.read()) {
      out.push(p.buffer.slice());
      reader.release(p);
    }
  } finally {
    await reader.close();
  }
  return out;
}

const running = (pid: number) => {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.startsWith("Z");
  } catch {
    return false;
  }
};

test("a worker per input reads the frames the calling thread reads", async () => {
  const here = await frames(await openWithFfmpeg(mkv, { readOn: "here" }));
  const worker = await openWithFfmpeg(mkv, { readOn: "worker" });
  expect((worker as { pid?: number }).pid).toBeUndefined(); // the decoder is the worker's
  const viaWorker = await frames(worker);
  expect(here.length).toBe(6);
  expect(viaWorker).toEqual(here);
}, 60_000);

test("through the worker, a file ffmpeg cannot decode is the same one-line error", async () => {
  const bad = join(dir, "bad.mkv");
  writeFileSync(bad, "not a video at all");
  const errors = await Promise.all((["here", "worker"] as const).map((readOn) => openWithFfmpeg(bad, { readOn }).then(() => undefined, (e: unknown) => e)));
  for (const e of errors) expect(isVqError(e)).toBe(true);
  expect((errors[1] as Error).message).toBe((errors[0] as Error).message);
  expect((errors[1] as Error).message).toStartWith(`${bad}: ffmpeg cannot decode it`);
}, 60_000);

test("closed mid-stream, the worker's ffmpeg is stopped", async () => {
  const long = join(dir, "long.mkv");
  execFileSync("ffmpeg", ["-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i", "testsrc2=s=640x360:r=24:d=60", "-c:v", "libx264", "-preset", "ultrafast", long]);
  const reader = await openWithFfmpeg(long, { readOn: "worker" });
  const p = await reader.read();
  reader.release(p!);
  const pids = execFileSync("pgrep", ["-f", long], { encoding: "utf8" }).trim().split("\n").map(Number);
  expect(pids.some(running)).toBe(true);
  await reader.close();
  const deadline = Date.now() + 5000;
  while (pids.some(running) && Date.now() < deadline) await Bun.sleep(50);
  expect(pids.filter(running)).toEqual([]);
}, 60_000);
