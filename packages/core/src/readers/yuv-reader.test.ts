import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { VqError } from "../errors.ts";
import { RawYuvReader } from "./yuv-reader.ts";

const dir = mkdtempSync(join(tmpdir(), "vq-yuv-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("RawYuvReader", () => {
  test("reads 4:2:2 10-bit frames and counts them from the file size", async () => {
    const format = { width: 3, height: 2, pixelFormat: "422" as const, bitDepth: 10 };
    const frameBytes = (3 * 2 + 2 * 2 * 2) * 2;
    const data = Uint8Array.from({ length: frameBytes * 3 }, (_, i) => i & 0xff);
    const path = join(dir, "a.yuv");
    writeFileSync(path, data);
    const r = await RawYuvReader.open(path, format);
    expect(r.frameCount).toBe(3);
    let n = 0;
    for (let p = await r.read(); p; p = await r.read()) {
      expect(p.planes[1]!.width).toBe(2);
      expect(p.planes[0]!.data[0]).toBe((n * frameBytes) & 0xff | (((n * frameBytes + 1) & 0xff) << 8));
      r.release(p);
      n++;
    }
    expect(n).toBe(3);
    await r.close();
  });

  test("rejects a size that is not a whole number of frames", async () => {
    const path = join(dir, "b.yuv");
    writeFileSync(path, new Uint8Array(4 * 4 * 3 + 10));
    const err = await RawYuvReader.open(path, { width: 4, height: 4, pixelFormat: "444", bitDepth: 8 }).catch((e) => e);
    expect(err).toBeInstanceOf(VqError);
    expect(err.message).toContain("not a whole number of 4x4 444 8-bit frames");
    expect(err.message).toContain("b.yuv");
  });

  test("rejects a picture size over vq's limit before sizing anything by it", async () => {
    const path = join(dir, "c.yuv");
    writeFileSync(path, new Uint8Array(60));
    const err = await RawYuvReader.open(path, { width: 32768, height: 16384, pixelFormat: "420", bitDepth: 8 }).catch((e) => e);
    expect(err).toBeInstanceOf(VqError);
    expect(err.message).toBe(`${path}: picture size 32768x16384 is over vq's limit of 268435456 samples (16384x16384) a picture (docs/limits.md)`);
  });

  test("rejects a missing file and a directory with their names", async () => {
    const fmt = { width: 4, height: 4, pixelFormat: "444" as const, bitDepth: 8 };
    const missing = await RawYuvReader.open(join(dir, "none.yuv"), fmt).catch((e) => e);
    expect(missing.message).toContain("none.yuv: no such file");
    const isDir = await RawYuvReader.open(dir, fmt).catch((e) => e);
    expect(isDir.message).toContain("is a directory");
  });
});
