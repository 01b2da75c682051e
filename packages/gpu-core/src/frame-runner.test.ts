import { expect, test } from "bun:test";
import { FeatureCollector, Picture, type PictureFormat } from "@vq/core";
import { GpuFrameRunner, type FrameInputs, type GpuStage } from "./frame-runner.ts";
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
  return {
    label: "echo",
    resultWords: 2 * words,
    inputs,
    init(g) {
      pipeline = computePipeline(g.device, { label: "echo", code });
    },
    encode(encoder, passes, frame, results, offset) {
      const group = gpu!.device.createBindGroup({
        layout: pipeline.getBindGroupLayout(0),
        entries: [frame.ref, frame.dist].map((buffer, binding) => ({ binding, resource: { buffer } })).concat([{ binding: 2, resource: { buffer: results, offset, size: 8 * words } } as never]),
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
    runner.close();
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
