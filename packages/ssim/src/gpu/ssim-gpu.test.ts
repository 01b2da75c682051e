import { describe, expect, test } from "bun:test";
import { CpuBackend, Picture, scoreVideos, VqError, type PictureFormat, type VideoReader } from "@vq/core";
import { GpuBackend } from "@vq/gpu-core";
import { gpuForTests } from "@vq/gpu-core/testing";
import { floatMsSsimDefinition, floatMsSsimOptions } from "../float-ms-ssim-definition.ts";
import { FloatMsSsimCpu } from "../cpu/float-ms-ssim-cpu.ts";
import { FloatMsSsimGpu } from "./float-ms-ssim-gpu.ts";
import { floatSsimDefinition, floatSsimOptions } from "../float-ssim-definition.ts";
import { FloatSsimCpu } from "../cpu/float-ssim-cpu.ts";
import { FloatSsimGpu } from "./float-ssim-gpu.ts";

/**
 * Synthetic frames for what the golden set lacks: 16-bit samples, odd sizes in 4:2:0 and
 * an explicit odd downscaling factor (box taps −1…1 with mirrored odd borders). A smooth
 * picture plus a seeded pattern; the distorted one adds more.
 */
function syntheticReader(format: PictureFormat, frames: number, seed: number): VideoReader {
  let i = 0;
  const peak = 2 ** format.bitDepth - 1;
  return {
    name: `synthetic ${seed}`,
    format,
    async read() {
      if (i >= frames) return null;
      const p = Picture.allocate(format);
      const y = p.planes[0]!;
      for (let r = 0; r < y.height; r++) {
        for (let x = 0; x < y.width; x++) {
          const smooth = 0.5 + 0.3 * Math.sin((x + 3 * i) / 17) * Math.cos(r / 23);
          const hash = (Math.imul((r * y.width + x + 1) ^ Math.imul(seed * 977 + i, 0x9e3779b9), 0x85ebca6b) >>> 8) / 2 ** 24;
          y.data[r * y.stride + x] = Math.round(peak * Math.min(1, Math.max(0, smooth + (hash - 0.5) * 0.05 * seed)));
        }
      }
      i++;
      return p;
    },
    release() {},
    async close() {},
  };
}

const gpu = await gpuForTests();

describe("float_ssim / float_ms_ssim on the GPU", () => {
  test.skipIf(!gpu)(
    "16-bit, odd 4:2:0 sizes and scale=3: every output within 1e-6 of the CPU",
    async () => {
      const format: PictureFormat = { width: 211, height: 187, bitDepth: 16, pixelFormat: "420" };
      const ssim = floatSsimOptions.parseStrings({ enable_lcs: "true", scale: "3" });
      const ms = floatMsSsimOptions.parseStrings({ enable_lcs: "true" });
      const frames = 2;
      const onCpu = await scoreVideos(syntheticReader(format, frames, 1), syntheticReader(format, frames, 3), new CpuBackend([new FloatSsimCpu(ssim), new FloatMsSsimCpu(ms)]));
      const onGpu = await scoreVideos(syntheticReader(format, frames, 1), syntheticReader(format, frames, 3), new GpuBackend(gpu!, [new FloatSsimGpu(ssim), new FloatMsSsimGpu(ms)]));
      const names = [...floatSsimDefinition.providedFeatures(ssim), ...floatMsSsimDefinition.providedFeatures(ms)];
      expect(names).toHaveLength(20);
      let worst = 0;
      for (const name of names) {
        for (let i = 0; i < frames; i++) {
          const cpu = onCpu.collector.get(name, i)!;
          expect(Number.isFinite(cpu), name).toBe(true);
          worst = Math.max(worst, Math.abs(onGpu.collector.get(name, i)! - cpu));
        }
      }
      console.log(`GPU vs CPU, synthetic 16-bit frames, 20 outputs: max |Δ| ${worst.toExponential(2)}`);
      expect(worst).toBeLessThanOrEqual(1e-6);
      // the content is distorted enough to test something
      expect(onCpu.collector.get("float_ssim", 0)!).toBeLessThan(0.99);
    },
    120_000,
  );

  test.skipIf(!gpu)("the GPU twins refuse what the CPU refuses, before touching the GPU", () => {
    const tiny: PictureFormat = { width: 100, height: 100, bitDepth: 8, pixelFormat: "420" };
    expect(() => new FloatMsSsimGpu(floatMsSsimOptions.defaults).init(gpu!, tiny)).toThrow(VqError);
    expect(() => new FloatSsimGpu(floatSsimOptions.parseStrings({ scale: "10" })).init(gpu!, tiny)).toThrow(/after downscaling by 10/);
    expect(() => new FloatSsimGpu(floatSsimOptions.defaults).init(gpu!, { ...tiny, bitDepth: 9 })).toThrow(/9-bit/);
  });
});
