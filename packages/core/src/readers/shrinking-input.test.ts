import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RawYuvReader } from "./yuv-reader.ts";
import { Y4mReader } from "./y4m-reader.ts";

// A file that shrinks while it is read (rewritten, truncated by another process) ends before
// the frame count its size promised at the start: an error naming the frame, never a
// shorter run scored as if it were whole.
const dir = mkdtempSync(join(tmpdir(), "vq-shrink-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const format = { width: 4, height: 2, bitDepth: 8, pixelFormat: "420" } as const;
const frameBytes = 4 * 2 + 2 * 2 * 1;

test("Y4M: a file cut to whole frames mid-read is an error naming the first missing frame", async () => {
  const path = join(dir, "shrinks.y4m");
  // frames larger than the reader's 64 KiB buffer, so that the cut is not read ahead
  const header = "YUV4MPEG2 W256 H256 F25:1 C420\n";
  const frame = "FRAME\n" + "x".repeat(256 * 256 * 1.5);
  writeFileSync(path, header + frame.repeat(3));
  const r = await Y4mReader.open(path);
  expect(r.frameCount).toBe(3);
  r.release((await r.read())!);
  truncateSync(path, header.length + frame.length * 2);
  r.release((await r.read())!);
  await expect(r.read()).rejects.toThrow(`${path}: frame 2: the file ended early (its size promised 3 frames); was it changed while vq read it?`);
  await r.close();
});

test("raw YUV: the same", async () => {
  const path = join(dir, "shrinks.yuv");
  writeFileSync(path, new Uint8Array(frameBytes * 3));
  const r = await RawYuvReader.open(path, format);
  r.release((await r.read())!);
  truncateSync(path, frameBytes);
  await expect(r.read()).rejects.toThrow(`${path}: frame 1: the file ended early (its size promised 3 frames); was it changed while vq read it?`);
  await r.close();
});
