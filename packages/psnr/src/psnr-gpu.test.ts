import { describe, expect, test } from "bun:test";
import { FeatureCollector, VqError, scoreVideos, type VideoReader } from "@vq/core";
import { syntheticReader as framesOf } from "@vq/core/testing";
import { GpuBackend } from "@vq/gpu-core";
import { gpuForTests } from "@vq/gpu-core/testing";
import { psnrOptions } from "./definition.ts";
import { PsnrCpu } from "./psnr-cpu.ts";
import { PsnrGpu } from "./psnr-gpu.ts";

const format = { width: 67, height: 33, bitDepth: 16, pixelFormat: "420" as const };

/** Synthetic frames, so edge cases the golden set lacks (16-bit, huge errors) are covered. */
function syntheticReader(name: string, frames: number, seed: number, onRead?: (i: number) => void): VideoReader {
  return framesOf(name, format, frames, (p, i) => {
    onRead?.(i);
    for (const plane of p.planes) for (let k = 0; k < plane.data.length; k++) plane.data[k] = Math.imul((k + 1) ^ Math.imul(seed * 131 + i, 0x9e3779b9), 0x85ebca6b) >>> 16;
  });
}

describe("psnr on the GPU", async () => {
  const gpu = await gpuForTests({ fresh: true });
  test.skipIf(!gpu)("16-bit sums beyond 32 bits match the CPU exactly", async () => {
    const options = psnrOptions.parseStrings({ enable_mse: "true", enable_apsnr: "true" });
    const onGpu = await scoreVideos(syntheticReader("a", 3, 1), syntheticReader("b", 3, 2), new GpuBackend(gpu!, [new PsnrGpu(options)]));
    const cpu = new PsnrCpu(options);
    const collector = new FeatureCollector();
    cpu.init(format);
    const a = syntheticReader("a", 3, 1);
    const b = syntheticReader("b", 3, 2);
    for (let i = 0; i < 3; i++) cpu.extract({ ref: (await a.read())!, dist: (await b.read())! }, i, collector);
    cpu.flush(collector);
    for (const name of ["psnr_y", "psnr_cb", "psnr_cr", "mse_y", "mse_cb", "mse_cr"]) {
      for (let i = 0; i < 3; i++) expect(onGpu.collector.get(name, i)).toBe(collector.get(name, i)!);
    }
    expect(onGpu.collector.aggregateEntries()).toEqual(collector.aggregateEntries());
    // the synthetic errors are large: sums must have needed more than 32 bits
    expect(collector.get("mse_y", 0)! * format.width * format.height).toBeGreaterThan(2 ** 32);
  });

  test.skipIf(!gpu?.hasTimestamps)("GPU timestamps attribute time to each kernel when profiling", async () => {
    const backend = new GpuBackend(gpu!, [new PsnrGpu(psnrOptions.defaults)], { profile: true });
    await scoreVideos(syntheticReader("a", 4, 1), syntheticReader("b", 4, 2), backend);
    expect(backend.runner.gpuTimeNs.get("psnr sse")).toBeGreaterThan(0);
  });

  test.skipIf(!gpu)("a device lost mid-run ends in a clear error, not a hang", async () => {
    const lost = gpu!;
    const run = scoreVideos(
      syntheticReader("ref", 50, 1, (i) => {
        if (i === 5) lost.device.destroy();
      }),
      syntheticReader("dist", 50, 2),
      new GpuBackend(lost, [new PsnrGpu(psnrOptions.defaults)]),
    );
    const err = await run.catch((e) => e);
    expect(err).toBeInstanceOf(VqError);
    expect(err.message).toMatch(/GPU (device lost|failure)/);
  });
});
