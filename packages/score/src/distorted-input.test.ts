import { describe, expect, test } from "bun:test";
import { memoryReader, type PictureFormat, type VideoReader } from "@vq/core";
import { prepareDistorted } from "./distorted-input.ts";

const format: PictureFormat = { width: 8, height: 8, bitDepth: 8, pixelFormat: "420" };

/** A reader of no frames that records whether it was closed. */
function input(name: string, f: PictureFormat, frameRate?: { num: number; den: number }): VideoReader & { closed: boolean } {
  const r = { ...memoryReader(name, f, []), frameRate, closed: false };
  r.close = async () => void (r.closed = true);
  return r;
}

const options = { skipRef: 0, skipDist: 0 };

describe("preparing the distorted input", () => {
  test("a matching input is scored as opened, with the skips given", async () => {
    const dist = input("d.y4m", format, { num: 24, den: 1 });
    const prepared = await prepareDistorted(input("r.y4m", format, { num: 24, den: 1 }), dist, {}, { skipRef: 2, skipDist: 1 });
    expect(prepared).toEqual({ reader: dist, filters: [], skipRef: 2, skipDist: 1 });
    expect(dist.closed).toBe(false);
  });

  test("a mismatch without conform: the error names --conform, and the input is closed", async () => {
    const dist = input("d.y4m", { ...format, bitDepth: 10 });
    await expect(prepareDistorted(input("r.y4m", format), dist, {}, options)).rejects.toThrow("bit depths differ: 8 vs 10; --conform converts");
    expect(dist.closed).toBe(true);
  });

  test("frames given as readers cannot be converted or aligned: errors saying so", async () => {
    const ref = input("r", format, { num: 24, den: 1 });
    const slow = input("d", format, { num: 12, den: 1 });
    await expect(prepareDistorted(ref, slow, {}, { ...options, conform: { scaler: "bicubic" } })).rejects.toThrow("d: conform converts the distorted video through ffmpeg, so it must be a file path, not frames");
    await expect(prepareDistorted(ref, input("d", format), {}, { ...options, align: { search: 3 } })).rejects.toThrow("--align auto reads the inputs' first frames separately, so both must be file paths");
    await expect(prepareDistorted(ref, input("d", format), {}, { skipRef: 1, skipDist: 0, align: { search: 3 } })).rejects.toThrow("without --frame_skip_ref and --frame_skip_dist");
  });
});
