import { describe, expect, test } from "bun:test";
import { FeatureCollector, isVqError, Picture, Y4mReader, type PictureFormat, type PixelFormat } from "@vq/core";
import { goldenPath } from "@vq/core/golden";
import { GpuBackend } from "@vq/gpu-core";
import { gpuForTests } from "@vq/gpu-core/testing";
import { CambiCpu } from "../cpu/cambi-cpu.ts";
import { CambiGpu } from "./cambi-gpu.ts";
import { cambiDefinition, cambiOptions, type CambiOptions } from "../definition.ts";
import { seededRandom as random } from "@vq/core/testing";

const gpu = await gpuForTests();

/**
 * A banded picture: flat steps a few codes apart (a slow gradient quantised to `step`
 * codes), a textured patch that the spatial mask leaves out, and sparse noise; luma in
 * `bitDepth` bits, chroma mid-grey.
 */
function bandedPicture(format: PictureFormat, seed: number, step = 1): Picture {
  const p = Picture.allocate(format);
  const next = random(seed);
  const max = (1 << format.bitDepth) - 1;
  const unit = 1 << Math.max(0, format.bitDepth - 8);
  const luma = p.planes[0]!;
  const phase = next() * 40;
  for (let y = 0; y < format.height; y++) {
    for (let x = 0; x < format.width; x++) {
      const ramp = 60 + ((x + 0.5 * y + phase) / format.width) * 40;
      let v = Math.floor(ramp / step) * step * unit + Math.floor(seed % 3) * unit;
      if (x > format.width * 0.7 && y < format.height * 0.3) v += Math.floor(next() * 12 * unit); // texture
      if (next() < 0.002) v += unit; // sparse noise
      luma.data[y * luma.stride + x] = Math.min(max, v);
    }
  }
  for (const chroma of p.planes.slice(1)) chroma.data.fill(1 << (format.bitDepth - 1));
  return p;
}

/** Vertical stripes of two codes `diff` apart (8 bits: 4·diff in 10 bits): c-values as large as a window allows. */
function stripes(format: PictureFormat, diff: number, width: number): Picture {
  const p = Picture.allocate(format);
  const luma = p.planes[0]!;
  const unit = 1 << Math.max(0, format.bitDepth - 8);
  for (let y = 0; y < format.height; y++) for (let x = 0; x < format.width; x++) luma.data[y * luma.stride + x] = (100 + (Math.floor(x / width) % 2) * diff) * unit;
  for (const chroma of p.planes.slice(1)) chroma.data.fill(1 << (format.bitDepth - 1));
  return p;
}

function cpuScores(options: CambiOptions, frames: { ref: Picture; dist: Picture }[]): FeatureCollector {
  const cpu = new CambiCpu(options);
  const collector = new FeatureCollector();
  cpu.init(frames[0]!.dist.format);
  frames.forEach((f, i) => cpu.extract(f, i, collector));
  cpu.close();
  return collector;
}

async function gpuScores(options: CambiOptions, frames: { ref: Picture; dist: Picture }[], batchFrames?: number, setBytes?: number): Promise<{ collector: FeatureCollector; stage: CambiGpu }> {
  const stage = new CambiGpu(options, setBytes);
  const backend = new GpuBackend(gpu!, [stage], { batchFrames });
  const collector = new FeatureCollector();
  await backend.init(frames[0]!.dist.format);
  try {
    for (let i = 0; i < frames.length; i++) await backend.extract(frames[i]!, i, collector);
    await backend.flush(collector);
  } finally {
    backend.close();
  }
  return { collector, stage };
}

/** Scores `frames` on both backends and expects the identical doubles for every output. */
async function expectSameAsCpu(options: Partial<Record<string, string>>, frames: { ref: Picture; dist: Picture }[], batchFrames?: number, setBytes?: number): Promise<CambiGpu> {
  const resolved = cambiOptions.parseStrings(options as Record<string, string>);
  const want = cpuScores(resolved, frames);
  const { collector: got, stage } = await gpuScores(resolved, frames, batchFrames, setBytes);
  for (const name of cambiDefinition.providedFeatures(resolved)) {
    const a = frames.map((_, i) => want.get(name, i));
    const b = frames.map((_, i) => got.get(name, i));
    expect(b, `${name} with ${JSON.stringify(options)}`).toEqual(a);
    expect(a.every((v) => typeof v === "number" && Number.isFinite(v))).toBe(true);
  }
  return stage;
}

/** `p` upscaled 2x by repeating samples (every plane), as tools/bench-inputs.ts does. */
function upscale2x(p: Picture): Picture {
  const out = Picture.allocate({ ...p.format, width: 2 * p.width, height: 2 * p.height });
  out.planes.forEach((plane, i) => {
    const src = p.planes[i]!;
    for (let y = 0; y < plane.height; y++) for (let x = 0; x < plane.width; x++) plane.data[y * plane.stride + x] = src.data[(y >> 1) * src.stride + (x >> 1)]!;
  });
  return out;
}

function formatOf(width: number, height: number, bitDepth: number, pixelFormat: PixelFormat = "420"): PictureFormat {
  return { width, height, bitDepth, pixelFormat };
}

function banded(format: PictureFormat, count: number, step = 1): { ref: Picture; dist: Picture }[] {
  return Array.from({ length: count }, (_, i) => ({ ref: bandedPicture(format, 100 + i, 1), dist: bandedPicture(format, 7 + i, step) }));
}

describe.skipIf(!gpu)("cambi on the GPU gives the CPU's doubles", () => {
  test("8-bit odd size, default options and full_ref", async () => {
    const frames = banded(formatOf(333, 217, 8), 2, 2);
    await expectSameAsCpu({}, frames);
    await expectSameAsCpu({ full_ref: "true" }, frames);
  }, 120_000);

  test("10-bit: top-k select path, small windows, luminance floor, pq, more contrast steps", async () => {
    const frames = banded(formatOf(400, 240, 10, "444"), 1, 3);
    for (const options of [
      { topk: "0.05", tvi_threshold: "0.012" },
      { window_size: "15", cambi_vis_lum_threshold: "20" },
      { max_log_contrast: "5", eotf: "pq", cambi_topk: "0.3" },
      { max_log_contrast: "0", cambi_max_val: "0.001" },
    ]) {
      await expectSameAsCpu(options, frames);
    }
  }, 180_000);

  test("the frames of a batch side by side: each frame its own scores, a last batch shorter than the others", async () => {
    const frames = banded(formatOf(330, 220, 10), 5, 2);
    for (const batchFrames of [2, 3]) await expectSameAsCpu({ full_ref: "true" }, frames, batchFrames);
    await expectSameAsCpu({ enc_width: "300", enc_height: "200", enc_bitdepth: "8", topk: "0.05" }, frames, 4);
  }, 180_000);

  test("a batch larger than one set of intermediates runs in several sets (as 4K does)", async () => {
    // a 1-byte budget leaves one frame a set: batches of 4 and a last one of 1 in sets of 1
    await expectSameAsCpu({ full_ref: "true" }, banded(formatOf(330, 220, 10), 5, 2), 4, 1);
  }, 180_000);

  test("encoding and source sizes, anti-dithering, 12 and 9 bits", async () => {
    await expectSameAsCpu({ enc_width: "300", enc_height: "200", enc_bitdepth: "8", full_ref: "true", src_width: "360", src_height: "230" }, banded(formatOf(420, 260, 8), 1, 2));
    await expectSameAsCpu({ enc_bitdepth: "8" }, banded(formatOf(330, 220, 12, "400"), 1, 2));
    await expectSameAsCpu({ full_ref: "true" }, banded(formatOf(330, 220, 9), 1, 2));
    // 10-bit full_ref with a larger source: libvmaf copies rows with mismatched strides
    await expectSameAsCpu({ full_ref: "true", src_width: "400", src_height: "250" }, banded(formatOf(330, 220, 10), 1, 2));
  }, 180_000);

  test("high-resolution speed-up at 1080p, and sums past 2^29: exact on the GPU, or libvmaf's pooling replayed on the GPU", async () => {
    const format = formatOf(1920, 1080, 8, "400");
    await expectSameAsCpu({ cambi_high_res_speedup: "1080", cambi_vis_lum_threshold: "0.06", cambi_max_val: "17" }, banded(format, 1, 2));
    const big = [{ ref: stripes(format, 1, 12), dist: stripes(format, 1, 12) }];
    // Past 2^29, but every top-k value is at least the k-th, whose last bit is coarse enough
    // for every partial sum to stay exact: pooled on the GPU.
    const exact = await expectSameAsCpu({ topk: "0.9" }, big);
    expect([exact.replayedFrames, exact.gpuReplayedScales]).toEqual([0, 0]);
    // Every non-zero value pooled (topk = 1), the smallest near 0.5: libvmaf's order matters,
    // replayed on the GPU (not on the CPU).
    // two frames in one batch: each replays its own c-values
    const replayed = await expectSameAsCpu({ topk: "1" }, [...big, { ref: stripes(format, 2, 10), dist: stripes(format, 2, 10) }], 2);
    expect(replayed.replayedFrames).toBe(0);
    expect(replayed.gpuReplayedScales).toBeGreaterThan(0);
  }, 300_000);

  test("a 4K frame upscaled from the golden 1080p pair (as tools/bench-inputs.ts makes it): libvmaf's pooling replayed on the GPU, none on the CPU", async () => {
    const reader = await Y4mReader.open(goldenPath("vectors/nat_1920x1080.x264crf35.y4m"));
    const frame = (await reader.read())!;
    await reader.close();
    const big = upscale2x(frame);
    // scale 0's top-k sum passes 2^29 with many values near 0.5: its order matters
    const stage = await expectSameAsCpu({}, [{ ref: big, dist: big }]);
    expect(stage.replayedFrames).toBe(0);
    expect(stage.gpuReplayedScales).toBeGreaterThan(0);
  }, 600_000);

  test("luma above the bit depth's maximum is an error naming the frame and sample", async () => {
    const frames = banded(formatOf(330, 220, 10), 3, 2);
    frames[1]!.dist.planes[0]!.data[5 * 330 + 7] = 1023 + 5;
    const err = await gpuScores(cambiOptions.resolve({}), frames).catch((e) => e);
    expect(isVqError(err)).toBe(true);
    expect(String(err.message)).toMatch(/frame 1: distorted luma sample at \(7, 5\) exceeds 1023/);
  }, 60_000);

  test("heatmaps are CPU-only: a clear error", async () => {
    const err = await gpuScores(cambiOptions.resolve({ heatmaps_path: "/tmp/x" }), banded(formatOf(330, 220, 8), 1)).catch((e) => e);
    expect(isVqError(err)).toBe(true);
    expect(String(err.message)).toMatch(/heatmaps_path .* CPU backend only/);
  });
});
