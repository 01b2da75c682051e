import { describe, expect, test } from "bun:test";
import { Y4mReader } from "@vq/core";
import { goldenPath } from "@vq/core/golden";
import { thumbnailRgb } from "./thumbnail.ts";

/** ffmpeg's own downscale (area) and BT.601 limited-range conversion of a Y4M's first frame. */
function ffmpegThumbnail(path: string, width: number, height: number): Uint8Array {
  const r = Bun.spawnSync({ cmd: ["ffmpeg", "-v", "error", "-i", path, "-frames:v", "1", "-vf", `scale=${width}:${height}:flags=area,format=rgb24`, "-f", "rawvideo", "pipe:1"], stdout: "pipe", stderr: "pipe" });
  expect(r.stderr.toString()).toBe("");
  return new Uint8Array(r.stdout);
}

describe("thumbnailRgb: a picture shrunk to RGB", () => {
  test.each(["nat_576x324.ref", "odd_321x241_444.ref", "grad_960x540_10b.ref", "chroma_352x288_444.hueshift"])("%s: close to ffmpeg's own conversion", async (name) => {
    const path = goldenPath(`vectors/${name}.y4m`);
    const reader = await Y4mReader.open(path);
    const picture = (await reader.read())!;
    await reader.close();
    const t = thumbnailRgb(picture, 160);
    expect(t.width).toBe(160);
    expect(t.height).toBe(Math.round((picture.height * 160) / picture.width));
    const theirs = ffmpegThumbnail(path, t.width, t.height);
    expect(theirs.length).toBe(t.rgb.length);
    // per channel: a swapped Cb/Cr or a wrong range moves the mean difference by tens
    for (let c = 0; c < 3; c++) {
      let diff = 0;
      for (let i = c; i < t.rgb.length; i += 3) diff += Math.abs(t.rgb[i]! - theirs[i]!);
      expect(diff / (t.rgb.length / 3)).toBeLessThan(4);
    }
  });

  test("never enlarged", async () => {
    const reader = await Y4mReader.open(goldenPath("vectors/odd_321x241_444.ref.y4m"));
    const picture = (await reader.read())!;
    await reader.close();
    const t = thumbnailRgb(picture, 1000);
    expect([t.width, t.height]).toEqual([321, 241]);
  });
});
