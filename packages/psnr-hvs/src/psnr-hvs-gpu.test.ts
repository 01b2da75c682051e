import { describe, expect, test } from "bun:test";
import { alignUp, FeatureCollector, packedLayout, Picture, scoreVideos, VqError, type PictureFormat } from "@vq/core";
import { GpuBackend } from "@vq/gpu-core";
import { pictureReader } from "@vq/core/testing";
import { gpuForTests } from "@vq/gpu-core/testing";
import { PLANE_CSF, maskingWeights } from "./csf.ts";
import { BlockScratch, planeError } from "./plane-error.ts";
import { createPsnrHvsCpu } from "./psnr-hvs-cpu.ts";
import { libvmafPlaneSizes, psnrHvsOptions } from "./definition.ts";
import { createPsnrHvsGpu, PsnrHvsGpu } from "./psnr-hvs-gpu.ts";
import { psnrHvsGpuLayout } from "./psnr-hvs-gpu-layout.ts";

const KEYS = ["psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr", "psnr_hvs"];

/**
 * A textured reference and a distorted copy: noise of a few levels in some bands, large
 * errors in others, untouched elsewhere, so terms are zero, masked and unmasked.
 */
function pair(format: PictureFormat, seed: number): { ref: Picture; dist: Picture } {
  const ref = Picture.allocate(format);
  const dist = Picture.allocate(format);
  const max = (1 << format.bitDepth) - 1;
  const scale = max / 255;
  let h = seed * 0x9e3779b9;
  const noise = () => {
    h = Math.imul(h ^ (h >>> 15), 0x85ebca6b) + 0x6b43a9b5;
    return ((h >>> 8) & 0xffff) / 0x10000;
  };
  ref.planes.forEach((plane, p) => {
    for (let y = 0; y < plane.height; y++) {
      for (let x = 0; x < plane.width; x++) {
        const v = 128 + 60 * Math.sin((x + 3 * p) / 5) * Math.cos(y / 7) + 30 * noise() * ((x >> 4) & 1);
        const r = Math.max(0, Math.min(max, Math.round(v * scale)));
        const band = (y >> 3) % 4;
        const e = band === 0 ? 0 : band === 1 ? Math.round((noise() - 0.5) * 6 * scale) : band === 2 ? Math.round((noise() - 0.5) * 200 * scale) : 1;
        plane.data[y * plane.stride + x] = r;
        dist.planes[p]!.data[y * plane.stride + x] = Math.max(0, Math.min(max, r + e));
      }
    }
  });
  return { ref, dist };
}


const FORMATS: PictureFormat[] = [
  { width: 67, height: 45, bitDepth: 8, pixelFormat: "420" },
  { width: 41, height: 23, bitDepth: 10, pixelFormat: "444" },
  { width: 50, height: 37, bitDepth: 12, pixelFormat: "422" },
  { width: 16, height: 16, bitDepth: 12, pixelFormat: "420" },
  { width: 8, height: 8, bitDepth: 9, pixelFormat: "444" },
];

describe("psnr_hvs on the GPU", async () => {
  const gpu = await gpuForTests();

  test.skipIf(!gpu)("every term is the CPU's float, bit for bit", async () => {
    const { device } = gpu!;
    for (const format of FORMATS.slice(0, 3)) {
      const { ref, dist } = pair(format, 7);
      const stage = createPsnrHvsGpu();
      stage.init(gpu!, format);
      const { planes, byteLength } = packedLayout(format);
      const frame = (p: Picture) => {
        const b = device.createBuffer({ size: alignUp(byteLength, 4), usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
        const bytes = new Uint8Array(alignUp(byteLength, 4));
        bytes.set(p.buffer.subarray(0, byteLength));
        device.queue.writeBuffer(b, 0, bytes);
        return b;
      };
      const results = device.createBuffer({ size: 256, usage: GPUBufferUsage.STORAGE });
      const layout = psnrHvsGpuLayout(format);
      const readback = device.createBuffer({ size: layout.terms * 4, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
      const encoder = device.createCommandEncoder();
      stage.encode(encoder, { beginComputePass: (label) => encoder.beginComputePass({ label }) }, { index: 0, ref: { buffer: frame(ref) }, dist: { buffer: frame(dist) }, format, planes }, results, 0);
      encoder.copyBufferToBuffer(stage.termsBuffer!, 0, readback, 0, layout.terms * 4);
      device.queue.submit([encoder.finish()]);
      await readback.mapAsync(GPUMapMode.READ);
      const onGpu = new Uint32Array(readback.getMappedRange().slice(0));
      readback.unmap();
      stage.close();
      libvmafPlaneSizes(format).forEach(({ width, height }, p) => {
        const plane = layout.planes[p]!;
        const terms = new Float32Array(plane.blocks * 64);
        planeError(ref.planes[p]!, dist.planes[p]!, width, height, format.bitDepth, PLANE_CSF[p]!, maskingWeights(PLANE_CSF[p]!), new BlockScratch(), terms);
        const expected = new Uint32Array(terms.buffer);
        const got = onGpu.subarray(plane.termsAt, plane.termsAt + terms.length);
        const first = expected.findIndex((v, k) => v !== got[k]);
        expect(`${JSON.stringify(format)} plane ${p}: first differing term ${first}`).toBe(`${JSON.stringify(format)} plane ${p}: first differing term -1`);
      });
    }
  });

  test.skipIf(!gpu)("scores match the CPU exactly (8- to 12-bit, 4:2:0 / 4:2:2 / 4:4:4, odd sizes, one-block planes)", async () => {
    for (const format of FORMATS) {
      const pictures = [pair(format, 1), pair(format, 2), { ...pair(format, 3), dist: pair(format, 3).ref }];
      const onGpu = await scoreVideos(pictureReader("ref", format, pictures.map((f) => f.ref)), pictureReader("dist", format, pictures.map((f) => f.dist)), new GpuBackend(gpu!, [createPsnrHvsGpu()]));
      const cpu = createPsnrHvsCpu();
      cpu.init(format);
      const collector = new FeatureCollector();
      pictures.forEach((f, i) => cpu.extract(f, i, collector));
      for (const key of KEYS) {
        for (let i = 0; i < pictures.length; i++) expect(`${key}[${i}] ${onGpu.collector.get(key, i)}`).toBe(`${key}[${i}] ${collector.get(key, i)}`);
      }
      expect(onGpu.collector.get("psnr_hvs", 2)).toBe(Infinity);
    }
  });

  test.skipIf(!gpu)("the float sum jumps most blocks and matches the CPU, as does the sum term by term", async () => {
    const format: PictureFormat = { width: 480, height: 270, bitDepth: 10, pixelFormat: "420" };
    const pictures = [pair(format, 4), pair(format, 5)];
    const cpu = createPsnrHvsCpu();
    cpu.init(format);
    const collector = new FeatureCollector();
    pictures.forEach((f, i) => cpu.extract(f, i, collector));
    const blocks = (psnrHvsGpuLayout(format).terms / 64) * pictures.length;
    for (const jumpGroups of [true, false]) {
      const stage = new PsnrHvsGpu(psnrHvsOptions.defaults, { jumpGroups });
      const onGpu = await scoreVideos(pictureReader("ref", format, pictures.map((f) => f.ref)), pictureReader("dist", format, pictures.map((f) => f.dist)), new GpuBackend(gpu!, [stage]));
      for (const key of KEYS) for (let i = 0; i < 2; i++) expect(onGpu.collector.get(key, i)).toBe(collector.get(key, i)!);
      if (jumpGroups) {
        expect(stage.termByTermBlocks).toBeGreaterThan(0); // at least each plane's first block
        expect(stage.termByTermBlocks).toBeLessThan(blocks / 20);
      } else {
        expect(stage.termByTermBlocks).toBe(blocks);
      }
    }
  });

  test.skipIf(!gpu)("samples beyond the bit depth: libvmaf's wrapped int products as on the CPU, and its NaN as the CPU's error", async () => {
    const format: PictureFormat = { width: 64, height: 48, bitDepth: 10, pixelFormat: "420" };
    const noise = (seed: number, max: number) => {
      const p = Picture.allocate(format);
      for (const plane of p.planes) for (let k = 0; k < plane.data.length; k++) plane.data[k] = (Math.imul((k + 1) ^ Math.imul(seed, 0x9e3779b9), 0x85ebca6b) >>> 9) % (max + 1);
      return p;
    };
    // 16000: no product wraps; 32000 and 45000: some DCT coefficients' squares wrap (a
    // number); 65535: the masking's square root of a negative energy (NaN in libvmaf).
    const outcomes: string[] = [];
    for (const max of [16000, 32000, 45000, 65535]) {
      const pictures = [{ ref: noise(1, max), dist: noise(2, max) }];
      const outcome = async (run: () => Promise<FeatureCollector> | FeatureCollector) => {
        try {
          const c = await run();
          return KEYS.map((k) => c.get(k, 0)).join(" ");
        } catch (e) {
          return (e as Error).message.replace(/ \(sample \d+ found\)/, "");
        }
      };
      const cpu = await outcome(() => {
        const extractor = createPsnrHvsCpu();
        extractor.init(format);
        const collector = new FeatureCollector();
        extractor.extract(pictures[0]!, 0, collector);
        return collector;
      });
      const onGpu = await outcome(async () => (await scoreVideos(pictureReader("ref", format, [pictures[0]!.ref]), pictureReader("dist", format, [pictures[0]!.dist]), new GpuBackend(gpu!, [createPsnrHvsGpu()]))).collector);
      expect(`${max}: ${onGpu}`).toBe(`${max}: ${cpu}`);
      outcomes.push(cpu);
    }
    expect(outcomes.at(-1)).toMatch(/^feature psnr_hvs: invalid input: frame 0: psnr_hvs_y has samples beyond 0\.\.1023/);
  });

  test.skipIf(!gpu)("formats libvmaf cannot score are the CPU's errors", () => {
    for (const format of [
      { width: 64, height: 64, bitDepth: 8, pixelFormat: "400" },
      { width: 64, height: 64, bitDepth: 16, pixelFormat: "420" },
      { width: 14, height: 64, bitDepth: 8, pixelFormat: "420" },
    ] as PictureFormat[]) {
      let cpuError: unknown;
      try {
        createPsnrHvsCpu().init(format);
      } catch (e) {
        cpuError = e;
      }
      expect(cpuError).toBeInstanceOf(VqError);
      expect(() => createPsnrHvsGpu().init(gpu!, format)).toThrow((cpuError as Error).message);
    }
  });
});
