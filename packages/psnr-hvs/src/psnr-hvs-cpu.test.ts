import { describe, expect, test } from "bun:test";
import { FeatureCollector, Picture, VqError, type PictureFormat, type PicturePair } from "@vq/core";
import { createPsnrHvsCpu } from "./psnr-hvs-cpu.ts";

function picture(format: PictureFormat, seed: number, max = (1 << format.bitDepth) - 1): Picture {
  const p = Picture.allocate(format);
  for (const plane of p.planes) for (let k = 0; k < plane.data.length; k++) plane.data[k] = (Math.imul((k + 1) ^ Math.imul(seed, 0x9e3779b9), 0x85ebca6b) >>> 9) % (max + 1);
  return p;
}

/** psnr_hvs of each pair (frame i = pairs[i]) from one extractor. */
function scores(format: PictureFormat, pairs: PicturePair[]): FeatureCollector {
  const cpu = createPsnrHvsCpu();
  cpu.init(format);
  const c = new FeatureCollector();
  pairs.forEach((pair, i) => cpu.extract(pair, i, c));
  return c;
}

describe("psnr_hvs on the CPU", () => {
  test("formats libvmaf cannot score are clear errors", () => {
    const cpu = createPsnrHvsCpu();
    expect(() => cpu.init({ width: 64, height: 64, bitDepth: 8, pixelFormat: "400" })).toThrow(/4:0:0/);
    expect(() => cpu.init({ width: 64, height: 64, bitDepth: 16, pixelFormat: "420" })).toThrow(/16-bit/);
    expect(() => cpu.init({ width: 14, height: 64, bitDepth: 8, pixelFormat: "420" })).toThrow(/chroma plane is 7x32/);
    expect(() => cpu.init({ width: 7, height: 64, bitDepth: 8, pixelFormat: "444" })).toThrow(VqError);
    expect(() => cpu.init({ width: 16, height: 16, bitDepth: 12, pixelFormat: "420" })).not.toThrow();
  });

  test("10-bit samples beyond 1023: libvmaf's number while its arithmetic gives one, else an error naming the frame and range, never NaN", () => {
    const format: PictureFormat = { width: 64, height: 48, bitDepth: 10, pixelFormat: "420" };
    const mild = scores(format, [{ ref: picture(format, 1, 2000), dist: picture(format, 2, 2000) }]);
    for (const key of ["psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr", "psnr_hvs"]) expect(Number.isFinite(mild.get(key, 0))).toBe(true);
    const ok = { ref: picture(format, 1), dist: picture(format, 2) };
    const wild = { ref: picture(format, 3, 65535), dist: picture(format, 4, 65535) };
    expect(() => scores(format, [ok, wild])).toThrow(/^feature psnr_hvs: invalid input: frame 1: psnr_hvs_y has samples beyond 0\.\.1023, the 10-bit range \(sample 6\d{4} found\), where libvmaf's psnr_hvs overflows and gives no number$/);
  });

  test("identical frames score +Infinity on every key (libvmaf's null)", () => {
    const format: PictureFormat = { width: 40, height: 24, bitDepth: 10, pixelFormat: "422" };
    const p = picture(format, 3);
    const c = scores(format, [{ ref: p, dist: p }]);
    for (const key of ["psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr", "psnr_hvs"]) expect(c.get(key, 0)).toBe(Infinity);
  });

  test("12-bit noise gives finite scores, worse for larger errors", () => {
    const format: PictureFormat = { width: 64, height: 48, bitDepth: 12, pixelFormat: "420" };
    const ref = picture(format, 1);
    const near = picture(format, 1);
    for (const plane of near.planes) for (let k = 0; k < plane.data.length; k += 3) plane.data[k] = Math.min(4095, plane.data[k]! + 40);
    const c = scores(format, [{ ref, dist: near }, { ref, dist: picture(format, 2) }]);
    for (const key of ["psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr", "psnr_hvs"]) {
      expect(Number.isFinite(c.get(key, 0)!)).toBe(true);
      expect(c.get(key, 1)!).toBeLessThan(c.get(key, 0)!);
    }
  });
});
