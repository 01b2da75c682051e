import { expect, test } from "bun:test";
import { decodeArguments } from "./ffmpeg-reader.ts";

test("ffmpeg's decode arguments: -threads and -hwaccel go before the input, filters in order, Y4M to stdout", () => {
  expect(decodeArguments("in.mp4", {})).toEqual(["-v", "error", "-nostdin", "-i", "in.mp4", "-map", "0:v:0", "-an", "-sn", "-f", "yuv4mpegpipe", "-strict", "-1", "pipe:1"]);
  expect(decodeArguments("in.mp4", { threads: 3, hwaccel: "cuda", scaleTo: { width: 64, height: 36 }, filters: ["fps=24/1"] })).toEqual([
    "-v", "error", "-nostdin", "-threads", "3", "-hwaccel", "cuda", "-i", "in.mp4", "-map", "0:v:0", "-an", "-sn",
    "-vf", "scale=64:36:flags=bicubic,fps=24/1", "-f", "yuv4mpegpipe", "-strict", "-1", "pipe:1",
  ]);
  // 0: ffmpeg's own choice, as without the option
  expect(decodeArguments("in.mp4", { threads: 0 })).toEqual(decodeArguments("in.mp4", {}));
  // luma alone: the plane's extraction ends the filter chain
  expect(decodeArguments("in.mp4", { lumaOnly: true, scaleTo: { width: 64, height: 36 } })).toContain("scale=64:36:flags=bicubic,extractplanes=y");
});

test("a hardware decoder's frames are converted back to the stream's pixel format before any other filter", () => {
  expect(decodeArguments("in.mp4", { hwaccel: "cuda", lumaOnly: true }, "yuv420p10le")).toEqual([
    "-v", "error", "-nostdin", "-hwaccel", "cuda", "-i", "in.mp4", "-map", "0:v:0", "-an", "-sn",
    "-vf", "format=yuv420p10le,extractplanes=y", "-f", "yuv4mpegpipe", "-strict", "-1", "pipe:1",
  ]);
  expect(decodeArguments("in.mp4", { hwaccel: "vaapi", scaleTo: { width: 64, height: 36 } }, "yuv420p")).toContain("format=yuv420p,scale=64:36:flags=bicubic");
});
