import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Y4mReader } from "@vq/core";
import { goldenPath } from "@vq/core/golden";
import { crc32, encodePng, pngDataUri } from "./png.ts";
import { thumbnailRgb } from "./thumbnail.ts";

const dir = mkdtempSync(join(tmpdir(), "vq-png-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** ffmpeg's decoding of a PNG file as RGB bytes: an independent reader. */
function ffmpegDecode(path: string): Uint8Array {
  const r = Bun.spawnSync({ cmd: ["ffmpeg", "-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1"], stdout: "pipe", stderr: "pipe" });
  expect(r.stderr.toString()).toBe("");
  return new Uint8Array(r.stdout);
}

describe("encodePng", () => {
  test("CRC-32 as PNG computes it (IEND's is fixed)", () => {
    expect(crc32(new TextEncoder().encode("IEND")).toString(16)).toBe("ae426082");
  });

  test("ffmpeg reads back the exact pixels of a golden frame's thumbnail", async () => {
    const reader = await Y4mReader.open(goldenPath("vectors/odd_321x241_444.ref.y4m"));
    const picture = (await reader.read())!;
    const t = thumbnailRgb(picture, 161);
    await reader.close();
    const png = encodePng(t.width, t.height, t.rgb);
    const path = join(dir, "frame.png");
    writeFileSync(path, png);
    expect(ffmpegDecode(path)).toEqual(t.rgb);
    expect(pngDataUri(png)).toStartWith("data:image/png;base64,iVBORw0KGgo");
  });

  test("a wrong buffer size is refused", () => {
    expect(() => encodePng(2, 2, new Uint8Array(11))).toThrow("11 bytes for 2x2 RGB");
  });
});
