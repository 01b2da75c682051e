import { describe, expect, test } from "bun:test";
import { CpuBackend, scoreVideos, type PictureFormat } from "@vq/core";
import { GpuBackend } from "@vq/gpu-core";
import { gpuForTests } from "@vq/gpu-core/testing";
import { speedChromaOptions, speedTemporalOptions } from "../definition.ts";
import { SpeedChromaCpu } from "../cpu/speed-chroma-cpu.ts";
import { SpeedChromaGpu } from "./speed-chroma-gpu.ts";
import { SpeedTemporalCpu } from "../cpu/speed-temporal-cpu.ts";
import { SpeedTemporalGpu } from "./speed-temporal-gpu.ts";
import { syntheticVideo, texture, type SampleFn } from "../synthetic-video.ts";

/**
 * The GPU twins against the CPU reference on synthetic frames, where the golden set has no
 * case: high bit depths, 4:2:2, every prescale method, other kernel scales, every weight
 * mode, singular covariances, speed_use_ref_diff. The GPU does libvmaf's float arithmetic
 * exactly, so every score must be the identical double. Every other case runs in batches of
 * 2 frames (the 3 frames as a full batch and a partial one: speed_temporal's previous frame
 * from within the batch and from the stage's copy), the others in one batch of 3.
 */
const gpu = await gpuForTests();

interface Case {
  name: string;
  format: PictureFormat;
  chroma: Record<string, string>;
  temporal: Record<string, string>;
  ref?: SampleFn;
  dist?: SampleFn;
}

const f = (width: number, height: number, pixelFormat: PictureFormat["pixelFormat"], bitDepth: number): PictureFormat => ({ width, height, pixelFormat, bitDepth });

const CASES: Case[] = [
  { name: "4:2:2 12-bit, kernel scale 0.5, weight mode 1", format: f(640, 320, "422", 12), chroma: { speed_kernelscale: "0.5", speed_weight_var_mode: "1" }, temporal: { speed_kernelscale: "0.5" } },
  { name: "4:2:0 16-bit, bicubic x1.5, weight mode 3", format: f(352, 352, "420", 16), chroma: { speed_prescale: "1.5", speed_prescale_method: "bicubic", speed_weight_var_mode: "3" }, temporal: { speed_prescale: "1.5", speed_prescale_method: "bicubic" } },
  { name: "4:4:4 10-bit, lanczos4 x0.75, kernel scale 2, weight mode 6", format: f(352, 352, "444", 10), chroma: { speed_prescale: "0.75", speed_prescale_method: "lanczos4", speed_kernelscale: "2", speed_weight_var_mode: "6" }, temporal: { speed_prescale: "0.75", speed_prescale_method: "lanczos4", speed_use_ref_diff: "true" } },
  { name: "4:4:4 8-bit, nearest x2, weight mode 2, other sigma_nn and nn_floor", format: f(160, 176, "444", 8), chroma: { speed_prescale: "2", speed_weight_var_mode: "2" }, temporal: { speed_prescale: "2", speed_sigma_nn: "0.5", speed_nn_floor: "0.3" } },
  { name: "4:4:4 8-bit, weight mode 4, bilinear x1.25", format: f(256, 256, "444", 8), chroma: { speed_weight_var_mode: "4", speed_prescale: "1.25", speed_prescale_method: "bilinear" }, temporal: {} },
  {
    name: "singular covariances: flat U in the reference, flat everything in the distorted",
    format: f(512, 512, "420", 8),
    chroma: { speed_weight_var_mode: "5" },
    temporal: {},
    ref: (p, x, y, i) => (p === 1 ? 100 : texture(f(512, 512, "420", 8), 5)(p, x, y, i)),
    dist: (p, x, y, i) => (i === 1 ? 60 : texture(f(512, 512, "420", 8), 6, 0.3)(p, x, y, i)),
  },
];

describe.skipIf(!gpu)("speed on the GPU matches the CPU exactly", () => {
  CASES.forEach((c, n) => {
    const batchFrames = n % 2 === 0 ? 2 : undefined;
    test(
      `${c.name}${batchFrames ? `, batches of ${batchFrames}` : ""}`,
      async () => {
        const chroma = speedChromaOptions.parseStrings(c.chroma);
        const temporal = speedTemporalOptions.parseStrings(c.temporal);
        const videos = () => [syntheticVideo("ref", c.format, 3, c.ref ?? texture(c.format, 1)), syntheticVideo("dist", c.format, 3, c.dist ?? texture(c.format, 2, 0.25))] as const;
        const [r1, d1] = videos();
        const cpu = (await scoreVideos(r1, d1, new CpuBackend([new SpeedChromaCpu(chroma), new SpeedTemporalCpu(temporal)]))).collector;
        const [r2, d2] = videos();
        const onGpu = (await scoreVideos(r2, d2, new GpuBackend(gpu!, [new SpeedChromaGpu(chroma), new SpeedTemporalGpu(temporal)], { batchFrames }))).collector;
        expect(onGpu.names()).toEqual(cpu.names());
        expect(cpu.names().length).toBe(4);
        // a meaningful comparison: the pictures are modelled, not all singular
        expect(Math.max(...cpu.names().map((n) => cpu.get(n, 2)!))).toBeGreaterThan(0.01);
        for (const name of cpu.names()) {
          for (let i = 0; i < 3; i++) {
            expect(Number.isFinite(cpu.get(name, i)!)).toBe(true);
            expect(onGpu.get(name, i)).toBe(cpu.get(name, i)!);
          }
        }
      },
      180_000,
    );
  });

  test("with --subsample, speed_chroma gets single frames from within a batch (base > 0)", async () => {
    const format = f(512, 384, "420", 10);
    const videos = () => [syntheticVideo("ref", format, 4, texture(format, 3)), syntheticVideo("dist", format, 4, texture(format, 4, 0.25))] as const;
    const [r1, d1] = videos();
    const cpu = (await scoreVideos(r1, d1, new CpuBackend([new SpeedChromaCpu(speedChromaOptions.defaults)]))).collector;
    const [r2, d2] = videos();
    const stages = [new SpeedChromaGpu(speedChromaOptions.defaults), new SpeedTemporalGpu(speedTemporalOptions.defaults)];
    const onGpu = (await scoreVideos(r2, d2, new GpuBackend(gpu!, stages, { batchFrames: 4, subsample: 2 }))).collector;
    expect(Math.max(...[0, 2].map((i) => cpu.get("speed_chroma_u", i)!))).toBeGreaterThan(0.01);
    for (const name of ["speed_chroma_u", "speed_chroma_v", "speed_chroma_uv"]) {
      for (const i of [0, 2]) expect(onGpu.get(name, i)).toBe(cpu.get(name, i)!);
      for (const i of [1, 3]) expect(onGpu.get(name, i)).toBeUndefined();
    }
  });

  test("exactly one singular picture in a pair scores 0, as libvmaf does", async () => {
    const format = f(512, 512, "420", 8);
    const ref = syntheticVideo("ref", format, 1, (p, x, y, i) => (p === 2 ? 128 : texture(format, 7)(p, x, y, i)));
    const dist = syntheticVideo("dist", format, 1, texture(format, 8, 0.3));
    const onGpu = (await scoreVideos(ref, dist, new GpuBackend(gpu!, [new SpeedChromaGpu(speedChromaOptions.defaults)]))).collector;
    expect(onGpu.get("speed_chroma_v", 0)).toBe(0);
    expect(onGpu.get("speed_chroma_uv", 0)).toBe(onGpu.get("speed_chroma_u", 0)!);
    expect(onGpu.get("speed_chroma_u", 0)!).toBeGreaterThan(0);
  });
});
