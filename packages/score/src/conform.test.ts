import { describe, expect, test } from "bun:test";
import { memoryReader, VqError, type PictureFormat, type VideoReader } from "@vq/core";
import { changesRate, conformFilters, describeRate, ffmpegPixelFormat, formatMismatches, planConform } from "./conform.ts";

function input(name: string, format: Partial<PictureFormat>, frameRate?: { num: number; den: number }): VideoReader {
  return { ...memoryReader(name, { width: 576, height: 324, bitDepth: 8, pixelFormat: "420", ...format }, []), frameRate };
}

const ref = input("ref.y4m", {}, { num: 24, den: 1 });

describe("conforming the distorted input to the reference", () => {
  test("rates: equal as fractions; described as fps, with the fraction when not whole", () => {
    expect(formatMismatches(ref, input("d.mp4", {}, { num: 48, den: 2 }))).toEqual([]);
    expect(describeRate({ num: 24, den: 1 })).toBe("24 fps");
    expect(describeRate({ num: 24000, den: 1001 })).toBe("24000/1001 fps (23.976)");
  });

  test("every difference is named; an unknown rate (raw YUV, Y4M without F) is not checked", () => {
    const dist = input("d.mp4", { width: 288, height: 162, bitDepth: 10, pixelFormat: "444" }, { num: 12, den: 1 });
    expect(formatMismatches(ref, dist)).toEqual(["sizes differ: 576x324 vs 288x162", "bit depths differ: 8 vs 10", "pixel formats differ: 420 vs 444", "frame rates differ: 24 fps vs 12 fps"]);
    expect(formatMismatches(ref, input("d.yuv", {}))).toEqual([]);
  });

  test("the filters: fps first, then one scale to size, depth and subsampling", () => {
    expect(conformFilters(ref, input("d.mp4", {}, { num: 12, den: 1 }), "bicubic")).toEqual(["fps=24/1"]);
    expect(conformFilters(ref, input("d.mp4", { bitDepth: 10 }, { num: 24, den: 1 }), "lanczos")).toEqual(["scale=576:324:flags=lanczos", "format=yuv420p"]);
    const all = conformFilters(input("r.y4m", { bitDepth: 10, pixelFormat: "444" }, { num: 30000, den: 1001 }), input("d.mp4", { width: 1920, height: 1080 }, { num: 25, den: 1 }), "neighbor");
    expect(all).toEqual(["fps=30000/1001", "scale=576:324:flags=neighbor", "format=yuv444p10le"]);
    expect(changesRate(all)).toBe(true);
    expect(changesRate(["scale=576:324:flags=neighbor"])).toBe(false);
    expect(conformFilters(ref, input("d.mp4", {}, { num: 24, den: 1 }), "bicubic")).toEqual([]);
  });

  test("ffmpeg's pixel format names", () => {
    expect(ffmpegPixelFormat({ width: 1, height: 1, bitDepth: 8, pixelFormat: "420" })).toBe("yuv420p");
    expect(ffmpegPixelFormat({ width: 1, height: 1, bitDepth: 12, pixelFormat: "422" })).toBe("yuv422p12le");
    expect(ffmpegPixelFormat({ width: 1, height: 1, bitDepth: 8, pixelFormat: "400" })).toBe("gray");
    expect(ffmpegPixelFormat({ width: 1, height: 1, bitDepth: 10, pixelFormat: "400" })).toBe("gray10le");
  });

  test("without conform a mismatch is an error naming both inputs, what differs and --conform", () => {
    const dist = input("twelve.mp4", {}, { num: 12, den: 1 });
    expect(() => planConform(ref, dist, undefined)).toThrow(VqError);
    expect(() => planConform(ref, dist, undefined)).toThrow(/ref\.y4m \(576x324 420 8-bit, 24 fps\) and distorted twelve\.mp4 \(576x324 420 8-bit, 12 fps\).*frame rates differ.*--conform/);
    expect(planConform(ref, dist, { scaler: "bicubic" })).toEqual(["fps=24/1"]);
    expect(planConform(ref, input("same.mp4", {}, { num: 24, den: 1 }), undefined)).toEqual([]);
    expect(() => planConform(ref, input("d.yuv", { bitDepth: 10 }), { scaler: "bicubic" })).toThrow("d.yuv: --conform reads the distorted video through ffmpeg");
  });
});
