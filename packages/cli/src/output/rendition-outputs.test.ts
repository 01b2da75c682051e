import { describe, expect, test } from "bun:test";
import { renditionName, renditionOutputs } from "./rendition-outputs.ts";

describe("a ladder's output paths", () => {
  test("{name} is the file's base name without its extension; {n} counts from 1", () => {
    expect(renditionName("/enc/1080p.x264.mp4")).toBe("1080p.x264");
    expect(renditionName("plain")).toBe("plain");
    expect(renditionOutputs("out/{name}-{n}.json", ["/a/720p.mp4", "/b/360p.mkv"])).toEqual(["out/720p-1.json", "out/360p-2.json"]);
  });

  test("a template naming one file for several inputs is refused, naming the placeholders", () => {
    expect(() => renditionOutputs("out.json", ["a.mp4", "b.mp4"])).toThrow('-o/--output "out.json" names one file for 2 distorted inputs: put {name}');
  });

  test("two inputs with the same {name} are refused before anything runs, unless {n} tells them apart", () => {
    expect(() => renditionOutputs("{name}.json", ["x/enc.mp4", "y/enc.mkv"])).toThrow('distorted inputs x/enc.mp4 and y/enc.mkv have the same name "enc"');
    expect(() => renditionOutputs(undefined, ["x/enc.mp4", "y/enc.mkv"])).toThrow("same name");
    expect(renditionOutputs("{n}.json", ["x/enc.mp4", "y/enc.mkv"])).toEqual(["1.json", "2.json"]);
  });
});
