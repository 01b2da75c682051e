import { describe, expect, test } from "bun:test";
import { CpuBackend, scoreVideos, VqError, type PictureFormat } from "@vq/core";
import { speedChromaOptions, speedTemporalOptions } from "../definition.ts";
import { SpeedChromaCpu } from "./speed-chroma-cpu.ts";
import { SpeedTemporalCpu } from "./speed-temporal-cpu.ts";
import { syntheticVideo, texture } from "../synthetic-video.ts";

// chroma planes of 256x256: 3x3 blocks, 11x11 samples per shifted copy in the covariance
const format: PictureFormat = { width: 512, height: 512, bitDepth: 8, pixelFormat: "420" };

async function run(ref: ReturnType<typeof syntheticVideo>, dist: ReturnType<typeof syntheticVideo>, chroma = speedChromaOptions.defaults) {
  return (await scoreVideos(ref, dist, new CpuBackend([new SpeedChromaCpu(chroma), new SpeedTemporalCpu(speedTemporalOptions.defaults)]))).collector;
}

describe("speed on the CPU", () => {
  test("identical inputs score 0; temporal scores 0 at frame 0 and for a still picture", async () => {
    const c = await run(syntheticVideo("a", format, 3, (p, x, y) => texture(format, 1)(p, x, y, 0)), syntheticVideo("a", format, 3, (p, x, y) => texture(format, 1)(p, x, y, 0)));
    for (let i = 0; i < 3; i++) for (const k of ["speed_chroma_u", "speed_chroma_v", "speed_chroma_uv", "speed_temporal"]) expect(c.get(k, i)).toBe(0);
  });

  test("a flat chroma plane (singular covariance) gives uv the other plane's score; flat everything stays finite", async () => {
    const t = texture(format, 2);
    const flatU = (p: number, x: number, y: number, f: number) => (p === 1 ? 128 : t(p, x, y, f));
    const c = await run(syntheticVideo("r", format, 2, flatU), syntheticVideo("d", format, 2, (p, x, y, f) => (p === 1 ? 128 : texture(format, 3)(p, x, y, f))));
    for (let i = 0; i < 2; i++) {
      expect(c.get("speed_chroma_v", i)!).toBeGreaterThan(0);
      expect(c.get("speed_chroma_uv", i)).toBe(c.get("speed_chroma_v", i)!);
    }
    const flat = await run(syntheticVideo("r", format, 2, () => 16), syntheticVideo("d", format, 2, () => 200));
    for (const name of flat.names()) for (let i = 0; i < 2; i++) expect(Number.isFinite(flat.get(name, i)!)).toBe(true);
  });

  test("distortion raises the score and speed_max_val clips it", async () => {
    const clean = await run(syntheticVideo("r", format, 2, texture(format, 4)), syntheticVideo("d", format, 2, texture(format, 4, 0.09)));
    const noisy = await run(syntheticVideo("r", format, 2, texture(format, 4)), syntheticVideo("d", format, 2, texture(format, 4, 0.4)));
    expect(noisy.get("speed_chroma_uv", 1)!).toBeGreaterThan(clean.get("speed_chroma_uv", 1)!);
    const clipped = await run(syntheticVideo("r", format, 2, texture(format, 4)), syntheticVideo("d", format, 2, texture(format, 4, 0.4)), speedChromaOptions.parseStrings({ speed_max_val: "0.5" }));
    expect(clipped.get("speed_chroma_uv_mxv_0.5", 1)).toBe(Math.min(0.5, noisy.get("speed_chroma_uv", 1)!));
  });

  test("a picture too small is a VqError at init, before any frame", async () => {
    const small: PictureFormat = { width: 150, height: 400, bitDepth: 8, pixelFormat: "420" };
    const err = await run(syntheticVideo("r", small, 1, () => 0), syntheticVideo("d", small, 1, () => 0)).catch((e) => e);
    expect(err).toBeInstanceOf(VqError);
    expect(err.message).toMatch(/needs at least 80x80 samples/);
  });
});
