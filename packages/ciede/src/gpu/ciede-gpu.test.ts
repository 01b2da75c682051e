import { describe, expect, test } from "bun:test";
import { FeatureCollector, VqError, scoreVideos, type PictureFormat, type VideoReader } from "@vq/core";
import { syntheticReader } from "@vq/core/testing";
import { GpuBackend } from "@vq/gpu-core";
import { gpuForTests } from "@vq/gpu-core/testing";
import { CiedeCpu } from "../cpu/ciede-cpu.ts";
import { CiedeGpu } from "./ciede-gpu.ts";

/**
 * Synthetic frames: formats and sample ranges the golden set lacks (4:2:2, 16-bit,
 * extreme colours). Each plane gets its own pattern: equal Cb and Cr everywhere would
 * put every colour on one line through grey, where opposite hues are common and ΔE00's
 * branch at a hue difference of exactly π decides pixels (adr/0005).
 */
function reader(format: PictureFormat, frames: number, seed: number, same = false): VideoReader {
  const max = (1 << format.bitDepth) - 1;
  return syntheticReader(`synthetic ${seed}`, format, frames, (p, i) => {
    p.planes.forEach((plane, n) => {
      for (let k = 0; k < plane.data.length; k++) {
        const base = (Math.imul(k + 1 + 7919 * n, 0x9e3779b9) >>> 8) % (max + 1);
        // reference: smooth noise; distorted: the same plus a small seeded error
        const error = same ? 0 : (Math.imul((k + 7) ^ Math.imul(seed * 131 + i, 0x85ebca6b), 0x27d4eb2f) >>> 28) - 8;
        plane.data[k] = Math.min(max, Math.max(0, base + error * Math.max(1, max >> 8)));
      }
    });
  });
}

async function cpuScores(format: PictureFormat, frames: number): Promise<FeatureCollector> {
  const cpu = new CiedeCpu({});
  cpu.init(format);
  const collector = new FeatureCollector();
  const a = reader(format, frames, 0, true);
  const b = reader(format, frames, 1);
  for (let i = 0; i < frames; i++) cpu.extract({ ref: (await a.read())!, dist: (await b.read())! }, i, collector);
  return collector;
}

describe("ciede on the GPU", async () => {
  const gpu = await gpuForTests();

  for (const format of [
    { width: 67, height: 21, bitDepth: 10, pixelFormat: "422" },
    { width: 64, height: 20, bitDepth: 16, pixelFormat: "420" },
    { width: 33, height: 17, bitDepth: 8, pixelFormat: "444" },
  ] as PictureFormat[]) {
    test.skipIf(!gpu)(`within 5e-5 of the CPU: ${format.width}x${format.height} ${format.pixelFormat} ${format.bitDepth}-bit`, async () => {
      const onGpu = await scoreVideos(reader(format, 2, 0, true), reader(format, 2, 1), new GpuBackend(gpu!, [new CiedeGpu({})]));
      const onCpu = await cpuScores(format, 2);
      for (let i = 0; i < 2; i++) {
        const expected = onCpu.get("ciede2000", i)!;
        expect(Number.isFinite(expected)).toBe(true);
        expect(Math.abs(onGpu.collector.get("ciede2000", i)! - expected)).toBeLessThanOrEqual(5e-5);
      }
    });
  }

  test.skipIf(!gpu)("identical frames score +Infinity", async () => {
    const format: PictureFormat = { width: 40, height: 8, bitDepth: 8, pixelFormat: "420" };
    const result = await scoreVideos(reader(format, 1, 0, true), reader(format, 1, 0, true), new GpuBackend(gpu!, [new CiedeGpu({})]));
    expect(result.collector.get("ciede2000", 0)).toBe(Infinity);
  });

  test.skipIf(!gpu)("4:0:0 is a clear error", async () => {
    const err = await Promise.resolve(new CiedeGpu({}).init(gpu!, { width: 16, height: 16, bitDepth: 8, pixelFormat: "400" })).catch((e) => e);
    expect(err).toBeInstanceOf(VqError);
    expect(err.message).toMatch(/4:0:0/);
  });
});
