import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { memoryReader, Y4mReader, type PictureFormat, type VideoReader } from "@vq/core";
import { lumaFingerprint, RepeatedFrames } from "./repeated-frames.ts";

const format: PictureFormat = { width: 16, height: 8, bitDepth: 8, pixelFormat: "420" };
const frameBytes = 16 * 8 * 1.5;
/** Frame `t` of a moving scene (every frame differs from the others). */
const frame = (t: number) => Uint8Array.from({ length: frameBytes }, (_, i) => (i * 3 + t * 17) & 0xff);
/** The frames of a scene in the order given (a number twice = a repeated frame). */
const frames = (order: number[]) => order.map(frame);

async function readAll(reader: VideoReader): Promise<void> {
  for (let p = await reader.read(); p; p = await reader.read()) reader.release(p);
}

const dir = mkdtempSync(join(tmpdir(), "vq-repeats-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("repeated distorted frames", () => {
  test("a distorted frame equal to the one before while the reference changes is named, by scored frame number", async () => {
    const watch = new RepeatedFrames(memoryReader("ref", format, frames([0, 1, 2, 3, 4, 5])), [memoryReader("dist.mp4", format, frames([0, 1, 1, 3, 4, 4])), memoryReader("clean.mp4", format, frames([0, 1, 2, 3, 4, 5]))]);
    await Promise.all([readAll(watch.ref), ...watch.dists.map(readAll)]);
    expect(watch.repeats(0, 0, 0, 6)).toEqual([2, 5]);
    expect(watch.repeats(1, 0, 0, 6)).toEqual([]);
    expect(watch.warning(0, 0, 0, 6)).toBe("dist.mp4: frames 2, 5 repeat the frame before while the reference changes: duplicated or dropped frames?");
    // after skips, numbers count from the first scored frame
    expect(watch.repeats(0, 1, 1, 5)).toEqual([1, 4]);
  });

  test("a distorted frame that stays still while the reference stays still is not a repeat", async () => {
    const still = new RepeatedFrames(memoryReader("ref", format, frames([0, 0, 0, 1])), [memoryReader("dist", format, frames([0, 0, 0, 1]))]);
    await Promise.all([readAll(still.ref), readAll(still.dists[0]!)]);
    expect(still.warning(0, 0, 0, 4)).toBeUndefined();
  });

  test("frames read by position (the GPU path), in any order, are watched too", async () => {
    const write = (name: string, order: number[]) => {
      const path = join(dir, name);
      const header = new TextEncoder().encode("YUV4MPEG2 W16 H8 F24:1 C420\n");
      const parts = [header, ...frames(order).flatMap((f) => [new TextEncoder().encode("FRAME\n"), f])];
      writeFileSync(path, Buffer.concat(parts));
      return path;
    };
    const watch = new RepeatedFrames(await Y4mReader.open(write("ref.y4m", [0, 1, 2, 3])), [await Y4mReader.open(write("dist.y4m", [0, 1, 1, 3]))]);
    try {
      const into = new Uint8Array(frameBytes);
      for (const i of [3, 1, 2, 0]) {
        await watch.ref.frameFile!.read(i, into, false);
        await watch.dists[0]!.frameFile!.read(i, into, false);
      }
      expect(watch.repeats(0, 0, 0, 4)).toEqual([2]);
    } finally {
      await watch.ref.close();
      await watch.dists[0]!.close();
    }
  });

  test("the fingerprint samples up to the plane's end; equal bytes give equal fingerprints", () => {
    const a = new Uint8Array(1 << 20);
    const b = a.slice();
    b[b.length - 1024] = 1;
    expect(lumaFingerprint(a)).not.toBe(lumaFingerprint(b));
    expect(lumaFingerprint(a)).toBe(lumaFingerprint(a.slice()));
  });
});
