import { expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FeatureCollector, Picture, scoreVideos, VqError, Y4mReader, type PictureFormat, type VideoReader } from "@vq/core";
import { acquireGpu } from "./device.ts";
import { GpuBackend } from "./gpu-backend.ts";
import { GpuFrameRunner } from "./frame-runner.ts";
import { parkedSlotCount } from "./upload-ring.ts";
import type { FrameInputs, GpuStage } from "./gpu-stage.ts";
import { computePipeline } from "./pipeline-cache.ts";
import { gpuForTests } from "./testing.ts";

const gpu = await gpuForTests();

/** Copies the first `words` words of both frame buffers into its results, as uploaded. */
function echoStage(inputs: FrameInputs | undefined, words: number, seen: Uint32Array[]): GpuStage {
  const code = `
@group(0) @binding(0) var<storage, read> reference: array<u32>;
@group(0) @binding(1) var<storage, read> distorted: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3u) {
  if (id.x < ${words}u) { out[id.x] = reference[id.x]; out[${words}u + id.x] = distorted[id.x]; }
}`;
  let pipeline: GPUComputePipeline;
  let device: GPUDevice;
  return {
    label: "echo",
    resultWords: 2 * words,
    inputs,
    init(g) {
      device = g.device;
      pipeline = computePipeline(g.device, { label: "echo", code });
    },
    encode(encoder, passes, frame, results, offset) {
      const group = device.createBindGroup({
        layout: pipeline.getBindGroupLayout(0),
        entries: [frame.ref, frame.dist].map((resource, binding) => ({ binding, resource })).concat([{ binding: 2, resource: { buffer: results, offset, size: 8 * words } } as never]),
      });
      const pass = passes.beginComputePass("echo");
      pass.setPipeline(pipeline);
      pass.setBindGroup(0, group);
      pass.dispatchWorkgroups(Math.ceil(words / 64));
      pass.end();
    },
    collect(w) {
      seen.push(w.slice());
    },
  };
}

test.skipIf(!gpu)("uploads only what the stages read: luma, the whole frame, or nothing of a side", async () => {
  const format: PictureFormat = { width: 16, height: 8, bitDepth: 8, pixelFormat: "420" };
  const ref = Picture.allocate(format);
  const dist = Picture.allocate(format);
  ref.buffer.forEach((_, i) => (ref.buffer[i] = (i * 7 + 1) & 255));
  dist.buffer.forEach((_, i) => (dist.buffer[i] = (i * 13 + 5) & 255));
  const words = ref.buffer.length / 4; // luma = 32 words, chroma = 16
  const lumaWords = (16 * 8) / 4;
  const asWords = (p: Picture) => new Uint32Array(p.buffer.buffer, p.buffer.byteOffset, words);

  const run = async (stages: { inputs?: FrameInputs }[]) => {
    const seen: Uint32Array[][] = stages.map(() => []);
    const runner = new GpuFrameRunner(gpu!, stages.map((s, i) => echoStage(s.inputs, words, seen[i]!)));
    await runner.init(format);
    await runner.submit({ ref, dist }, 0, new FeatureCollector());
    await runner.flush(new FeatureCollector());
    await runner.close();
    const out = seen[0]![0]!;
    return { ref: out.subarray(0, words), dist: out.subarray(words) };
  };
  const zeros = new Uint32Array(words);
  const lumaOnly = (p: Picture) => Uint32Array.from(asWords(p), (w, i) => (i < lumaWords ? w : 0));

  // Luma of both: chroma never reaches the GPU (fresh buffers hold zeros).
  let got = await run([{ inputs: { reference: "luma", distorted: "luma" } }]);
  expect([...got.ref]).toEqual([...lumaOnly(ref)]);
  expect([...got.dist]).toEqual([...lumaOnly(dist)]);
  // Motion's case: the reference's luma, nothing of the distorted picture.
  got = await run([{ inputs: { reference: "luma", distorted: "none" } }]);
  expect([...got.ref]).toEqual([...lumaOnly(ref)]);
  expect([...got.dist]).toEqual([...zeros]);
  // One stage that reads everything makes the runner upload everything, for all stages.
  got = await run([{ inputs: { reference: "luma", distorted: "none" } }, {}]);
  expect([...got.ref]).toEqual([...asWords(ref)]);
  expect([...got.dist]).toEqual([...asWords(dist)]);
});

/** A Y4M file of `frames` 16x8 4:2:0 frames, every byte a function of its frame and place. */
function y4mFile(frames: number, corruptMarkerOf?: number, seed = 0): { path: string; frameBytes: (i: number) => Uint8Array } {
  const format: PictureFormat = { width: 16, height: 8, bitDepth: 8, pixelFormat: "420" };
  const size = 16 * 8 + 2 * 8 * 4;
  const frameBytes = (i: number) => Uint8Array.from({ length: size }, (_, j) => (i * 31 + j * 7 + 3 + seed) & 255);
  const parts: Uint8Array[] = [new TextEncoder().encode(`YUV4MPEG2 W${format.width} H${format.height} F25:1 C420jpeg\n`)];
  for (let i = 0; i < frames; i++) parts.push(new TextEncoder().encode(i === corruptMarkerOf ? "FRAMX\n" : "FRAME\n"), frameBytes(i));
  const path = join(mkdtempSync(join(tmpdir(), "vq-runner-")), "in.y4m");
  writeFileSync(path, Buffer.concat(parts));
  return { path, frameBytes };
}

/** Echoes every word of both uploaded frames, per frame, into `seen` (index → words). */
function batchEchoStage(words: number, seen: Map<number, Uint32Array>, temporal = false): GpuStage {
  const stage = echoStage(undefined, words, []);
  return { ...stage, temporal, collect: (w, index) => void seen.set(index, w.slice()) };
}

test.skipIf(!gpu)("batches of any size, from pictures or straight from the files, give every frame its own words, in order", async () => {
  const frames = 7;
  const { path, frameBytes } = y4mFile(frames);
  const words = (16 * 8 + 2 * 32) / 4;
  const expected = (i: number) => {
    const w = new Uint32Array(2 * words);
    w.set(new Uint32Array(frameBytes(i).buffer), 0);
    w.set(new Uint32Array(frameBytes(i).buffer), words);
    return [...w];
  };
  for (const batchFrames of [1, 3, 8]) {
    for (const direct of [false, true]) {
      const seen = new Map<number, Uint32Array>();
      const backend = new GpuBackend(gpu!, [batchEchoStage(words, seen)], { batchFrames });
      const [ref, dist] = [await Y4mReader.open(path), await Y4mReader.open(path)];
      // Without frameFile the readers hand pictures to the runner instead.
      const readers = direct ? [ref, dist] : [withoutFrameFile(ref), withoutFrameFile(dist)];
      const result = await scoreVideos(readers[0]!, readers[1]!, backend);
      expect(result.frames).toBe(frames);
      expect(backend.runner.batchFrames).toBe(batchFrames);
      expect([...seen.keys()]).toEqual([...Array(frames).keys()]);
      for (let i = 0; i < frames; i++) expect([...seen.get(i)!]).toEqual(expected(i));
      await ref.close();
      await dist.close();
    }
  }
});

test.skipIf(!gpu)("with --subsample, stages that are not temporal see only every n-th frame of a batch", async () => {
  const { path } = y4mFile(7);
  const words = (16 * 8 + 2 * 32) / 4;
  const plain = new Map<number, Uint32Array>();
  const temporal = new Map<number, Uint32Array>();
  const backend = new GpuBackend(gpu!, [batchEchoStage(words, plain), batchEchoStage(words, temporal, true)], { batchFrames: 4, subsample: 3 });
  await scoreVideos(await Y4mReader.open(path), await Y4mReader.open(path), backend);
  expect([...plain.keys()]).toEqual([0, 3, 6]);
  expect([...temporal.keys()]).toEqual([0, 1, 2, 3, 4, 5, 6]);
});

test.skipIf(!gpu)("a damaged FRAME marker read straight into the upload buffer is an error naming the file, frame and byte", async () => {
  const { path } = y4mFile(5, 3);
  const backend = new GpuBackend(gpu!, [batchEchoStage(4, new Map())], { batchFrames: 2 });
  const ref = await Y4mReader.open(path);
  expect(ref.frameFile).toBeDefined();
  const err = await scoreVideos(ref, await Y4mReader.open(path), backend).catch((e) => e);
  expect(err).toBeInstanceOf(VqError);
  expect(err.message).toMatch(new RegExp(`${path.replace(/[/.]/g, "\\$&")}: frame 3: expected a FRAME marker at byte \\d+, found "FRAMX\\\\n"`));
});

test.skipIf(!gpu)("a finished run's ring slots serve the device's next run of the same layout; a failed run's are freed", async () => {
  const own = await acquireGpu(); // its own device: the counts are this test's
  const words = (16 * 8 + 2 * 32) / 4;
  const run = async (path: string) => {
    const seen = new Map<number, Uint32Array>();
    const backend = new GpuBackend(own, [batchEchoStage(words, seen)], { batchFrames: 3 });
    await scoreVideos(await Y4mReader.open(path), await Y4mReader.open(path), backend);
    return seen;
  };
  await run(y4mFile(7).path);
  const parked = parkedSlotCount(own.device);
  expect(parked).toBe(3);
  // taken and given back, not made anew; and every frame is the second run's own
  const second = y4mFile(7, undefined, 100);
  const seen = await run(second.path);
  expect(parkedSlotCount(own.device)).toBe(parked);
  for (let i = 0; i < 7; i++) expect([...seen.get(i)!.subarray(0, words)]).toEqual([...new Uint32Array(second.frameBytes(i).buffer)]);
  await expect(run(y4mFile(7, 4).path)).rejects.toThrow("expected a FRAME marker");
  expect(parkedSlotCount(own.device)).toBe(0);
  own.device.destroy();
});

function withoutFrameFile(reader: VideoReader): VideoReader {
  return { name: reader.name, format: reader.format, frameCount: reader.frameCount, read: () => reader.read(), release: (p) => reader.release(p), close: () => reader.close() };
}

test.skipIf(!gpu)("a device lost while frames are read straight from the files ends in a clear error, not a hang", async () => {
  const own = await acquireGpu(); // its own device: destroying it leaves the other tests theirs
  const { path } = y4mFile(40);
  const backend = new GpuBackend(own, [batchEchoStage(8, new Map())], { batchFrames: 3 });
  const extract = backend.extractFromFiles.bind(backend);
  backend.extractFromFiles = (ref, dist, index, collector) => {
    if (index === 7) own.device.destroy();
    return extract(ref, dist, index, collector);
  };
  const err = await scoreVideos(await Y4mReader.open(path), await Y4mReader.open(path), backend).catch((e) => e);
  expect(err).toBeInstanceOf(VqError);
  expect(err.message).toMatch(/GPU (device lost|failure)/);
});

test.skipIf(!gpu)("a run shorter than a batch sizes its batches by its frames (a one-frame run allocates for one)", async () => {
  const { path } = y4mFile(2);
  const backend = new GpuBackend(gpu!, [batchEchoStage(4, new Map())]);
  await scoreVideos(await Y4mReader.open(path), await Y4mReader.open(path), backend);
  expect(backend.runner.batchFrames).toBe(2);
});

test.skipIf(!gpu)("batches hold as many frames as fit 64 MiB of upload, at least 2 while a frame pair fits, else 1", async () => {
  const batchFor = async (format: PictureFormat, inputs?: FrameInputs) => {
    const runner = new GpuFrameRunner(gpu!, [echoStage(inputs, 1, [])]);
    await runner.init(format);
    return runner.batchFrames;
  };
  const luma = { reference: "luma", distorted: "luma" } as const;
  // 1080p luma pairs: 4.1 MB → capped at 8; 4K 8-bit luma: 16.6 MB → 4
  expect(await batchFor({ width: 1920, height: 1080, bitDepth: 8, pixelFormat: "420" }, luma)).toBe(8);
  expect(await batchFor({ width: 3840, height: 2160, bitDepth: 8, pixelFormat: "420" }, luma)).toBe(4);
  // 4K 10-bit, every plane of both: 49.8 MB → 2; 8K 10-bit: 199 MB → 1
  expect(await batchFor({ width: 3840, height: 2160, bitDepth: 10, pixelFormat: "420" })).toBe(2);
  expect(await batchFor({ width: 7680, height: 4320, bitDepth: 10, pixelFormat: "420" })).toBe(1);
});

test.skipIf(!gpu)("a run's first batch is one frame, scored before the next frame comes (the first score comes at once)", async () => {
  const format: PictureFormat = { width: 16, height: 8, bitDepth: 8, pixelFormat: "420" };
  const words = (16 * 8 + 2 * 32) / 4;
  const seen = new Map<number, Uint32Array>();
  const batches: number[] = [];
  const echo = batchEchoStage(words, seen);
  const stage: GpuStage = {
    ...echo,
    encode: undefined,
    encodeBatch(encoder, passes, batch, results, offset, stride) {
      batches.push(batch.count);
      batch.frames.forEach((frame, f) => echo.encode!(encoder, passes, frame, results, offset + f * stride));
    },
  };
  const runner = new GpuFrameRunner(gpu!, [stage], { batchFrames: 4 });
  await runner.init(format);
  const collector = new FeatureCollector();
  const picture = (i: number) => {
    const p = Picture.allocate(format);
    p.buffer.fill(i + 1);
    return p;
  };
  await runner.submit({ ref: picture(0), dist: picture(0) }, 0, collector);
  // no second frame and no flush: the first is scored on its own
  for (let t = 0; t < 500 && !seen.has(0); t++) await Bun.sleep(10);
  expect([...seen.keys()]).toEqual([0]);
  for (let i = 1; i < 9; i++) await runner.submit({ ref: picture(i), dist: picture(i) }, i, collector);
  await runner.flush(collector);
  await runner.close();
  expect(batches).toEqual([1, 4, 4]);
  expect(runner.batchFrames).toBe(4);
  for (let i = 0; i < 9; i++) expect(seen.get(i)![0]).toBe((i + 1) * 0x01010101);
});
