import { expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RawYuvReader } from "./yuv-reader.ts";
import { Y4mReader } from "./y4m-reader.ts";

const dir = mkdtempSync(join(tmpdir(), "vq-frame-file-"));
const bytesOf = (frame: number, n: number) => Uint8Array.from({ length: n }, (_, i) => (frame * 131 + i * 7 + (i >> 9)) & 255);

// 1920x1080 4:2:0 10-bit: 6.2 MB frames, read in two pieces at once.
test("frames read by position equal the frames read in order, in any order, large ones in pieces", async () => {
  const [w, h] = [1920, 1080];
  const frameBytes = (w * h + 2 * (w / 2) * (h / 2)) * 2;
  const header = `YUV4MPEG2 W${w} H${h} F25:1 C420p10\n`;
  const parts = [Buffer.from(header)];
  for (let f = 0; f < 3; f++) parts.push(Buffer.from("FRAME\n"), Buffer.from(bytesOf(f, frameBytes)));
  const path = join(dir, "big.y4m");
  writeFileSync(path, Buffer.concat(parts));
  const reader = await Y4mReader.open(path);
  const file = reader.frameFile!;
  expect(file.frameCount).toBe(3);
  expect(file.frameBytes).toBe(frameBytes);
  for (const f of [2, 0, 1]) {
    const into = new Uint8Array(frameBytes + 6);
    await file.read(f, into.subarray(6), true);
    expect(Buffer.compare(into.subarray(6), bytesOf(f, frameBytes))).toBe(0);
    const luma = new Uint8Array(w * h * 2);
    await file.read(f, luma, false); // no room for the marker: it is read apart
    expect(Buffer.compare(luma, bytesOf(f, w * h * 2))).toBe(0);
    const band = new Uint8Array(4096);
    await file.read(f, band, false, 100_000); // from inside the frame: no marker there to check
    expect(Buffer.compare(band, bytesOf(f, frameBytes).subarray(100_000, 104_096))).toBe(0);
  }
  expect(file.read(0, new Uint8Array(16), false, frameBytes - 8)).rejects.toThrow("a read of 16 bytes from byte 6220792 goes past a frame (6220800)");
  for (let f = 0; f < 3; f++) {
    const p = (await reader.read())!;
    expect(Buffer.compare(p.buffer.subarray(0, frameBytes), bytesOf(f, frameBytes))).toBe(0);
    reader.release(p);
  }
  await reader.close();
});

test("raw YUV frames by position; a frame outside the file is an error", async () => {
  const format = { width: 64, height: 32, bitDepth: 8, pixelFormat: "444" as const };
  const frameBytes = 64 * 32 * 3;
  const path = join(dir, "in.yuv");
  writeFileSync(path, Buffer.concat([0, 1, 2, 3].map((f) => Buffer.from(bytesOf(f, frameBytes)))));
  const reader = await RawYuvReader.open(path, format);
  const file = reader.frameFile!;
  const into = new Uint8Array(frameBytes);
  await file.read(3, into, false);
  expect(Buffer.compare(into, bytesOf(3, frameBytes))).toBe(0);
  await expect(file.read(4, into, false)).rejects.toThrow(`${path}: no frame 4 (it has 4)`);
  await reader.close();
});

test("a Y4M file whose frames do not tile it exactly has no frame file (the reader streams it)", async () => {
  const path = join(dir, "params.y4m");
  writeFileSync(path, Buffer.concat([Buffer.from("YUV4MPEG2 W8 H8 C444\n"), Buffer.from("FRAME Ixyz\n"), Buffer.alloc(192)]));
  const reader = await Y4mReader.open(path);
  expect(reader.frameFile).toBeUndefined();
  expect(await reader.read()).not.toBeNull();
  await reader.close();
});

test("a damaged FRAME marker read by position is named with its control bytes escaped", async () => {
  const parts = [Buffer.from("YUV4MPEG2 W4 H4 F25:1 C444\n")];
  for (let f = 0; f < 3; f++) parts.push(Buffer.from(f === 1 ? "FR\x1b\0\r\n" : "FRAME\n"), Buffer.from(bytesOf(f, 48)));
  const path = join(dir, "marker.y4m");
  writeFileSync(path, Buffer.concat(parts));
  const file = (await Y4mReader.open(path)).frameFile!;
  const err = await file.read(1, new Uint8Array(48), false).catch((e) => e);
  expect(err.message).toBe(`${path}: frame 1: expected a FRAME marker at byte 81, found "FR\\x1b\\0\\r\\n"`);
});
