import { describe, expect, test } from "bun:test";
import { memoryReader, VqError, type PictureFormat } from "@vq/core";
import { bestOffset, findAlignment, MIN_MATCH_PSNR, offsetScores, psnrOf } from "./alignment.ts";
import { lumaThumbnail, thumbnailGrid, thumbnailMse, type LumaThumbnail } from "./luma-thumbnail.ts";

/** A moving scene: frame t is a ramp shifted by t (each frame differs from its neighbours). */
function scene(first: number, count: number, format: PictureFormat, seed = 0): Uint8Array[] {
  const size = format.width * format.height * 1.5;
  return Array.from({ length: count }, (_, i) => {
    const t = first + i;
    const frame = new Uint8Array(size);
    for (let y = 0; y < format.height; y++) for (let x = 0; x < format.width; x++) frame[y * format.width + x] = (x * 4 + y * 3 + t * 9 + seed * ((x * y) % 251)) & 0xff;
    return frame;
  });
}

const format: PictureFormat = { width: 32, height: 16, bitDepth: 8, pixelFormat: "420" };
/** Mean of columns [x0, x1) of a frame's luma rows. */
function mean(frame: Uint8Array, x0: number, x1: number): number {
  let sum = 0;
  for (let y = 0; y < format.height; y++) for (let x = x0; x < x1; x++) sum += frame[y * format.width + x]!;
  return sum / (format.height * (x1 - x0));
}

const thumb = (v: number): LumaThumbnail => ({ width: 1, height: 1, cells: Float32Array.of(v) });

describe("--align: the offset search", () => {
  test("offset k compares reference frame i + k with distorted frame i, over `window` pairs from each input's start", () => {
    const ref = [0, 10, 20, 30, 40, 50].map(thumb);
    const dist = [20, 30, 40, 50].map(thumb); // starts at reference frame 2
    const scores = offsetScores(ref, dist, 3, 2);
    expect(scores.map((s) => s.offset)).toEqual([-2, -1, 0, 1, 2, 3]); // 2 pairs: the distorted has 4 frames, the reference 6
    expect(scores.find((s) => s.offset === 2)!.mse).toBe(0);
    expect(scores.find((s) => s.offset === 0)!.mse).toBe(400);
    expect(bestOffset(scores)!.offset).toBe(2);
  });

  test("the better half of the pairs counts: a repeated frame in the window does not spoil the match", () => {
    const ref = [0, 10, 20, 30, 40, 50, 60, 70].map(thumb);
    const dist = [20, 30, 30, 50, 60, 70].map(thumb); // from reference frame 2, frame 4 lost and 3 shown twice
    const scores = offsetScores(ref, dist, 3, 6);
    expect(scores.find((s) => s.offset === 2)!.mse).toBe(0);
    expect(bestOffset(scores)!.offset).toBe(2);
  });

  test("a still scene matches at every offset: the tie goes to no offset", () => {
    const still = Array.from({ length: 8 }, () => thumb(7));
    expect(bestOffset(offsetScores(still, still, 3, 4))!.offset).toBe(0);
  });

  test("finds a distorted input that misses its first frames, or the reference's", async () => {
    const open = (frames: Uint8Array[]) => async () => memoryReader("x", format, frames);
    const a = await findAlignment(open(scene(0, 24, format)), open(scene(3, 21, format)), 30);
    expect([a.skipRef, a.skipDist]).toEqual([3, 0]);
    expect(a.psnr).toBe(Infinity);
    const b = await findAlignment(open(scene(2, 20, format)), open(scene(0, 24, format)), 30);
    expect([b.skipRef, b.skipDist]).toEqual([0, 2]);
  });

  test("unrelated videos are an error saying so", async () => {
    const open = (name: string, frames: Uint8Array[]) => async () => memoryReader(name, format, frames);
    const err = await findAlignment(open("ref.y4m", scene(0, 24, format)), open("other.y4m", scene(0, 24, format, 1).map((f) => f.reverse())), 5).catch((e) => e);
    expect(err).toBeInstanceOf(VqError);
    expect(err.message).toContain("no offset within ±5 frames matches other.y4m to ref.y4m");
    expect(err.message).toContain(`below ${MIN_MATCH_PSNR} dB`);
  });

  test("inputs of different sizes and bit depths compare on one grid, in 8-bit units", async () => {
    expect(thumbnailGrid({ width: 1920, height: 1080 }, { width: 640, height: 360 })).toEqual({ width: 128, height: 72 });
    expect(thumbnailGrid({ width: 32, height: 16 }, { width: 64, height: 32 })).toEqual({ width: 32, height: 16 });
    const eight = scene(0, 1, format)[0]!;
    const ten = Uint16Array.from({ length: eight.length }, (_, i) => eight[i]! * 4);
    const [a, b] = await Promise.all([memoryReader("8", format, [eight]).read(), memoryReader("10", { ...format, bitDepth: 10 }, [ten]).read()]);
    const grid = thumbnailGrid(format, format);
    expect(thumbnailMse(lumaThumbnail(a!, grid), lumaThumbnail(b!, grid))).toBe(0);
    expect(lumaThumbnail(a!, { width: 2, height: 1 }).cells).toEqual(Float32Array.of(mean(eight, 0, 16), mean(eight, 16, 32)));
    expect(psnrOf(255 * 255)).toBe(0);
  });
});
