import { FeatureCollector, type PicturePair } from "@vq/core";
import { acquireGpu, isNoAdapterError, sharedGpu, type GpuContext } from "./device.ts";
import { GpuFrameRunner } from "./frame-runner.ts";
import type { GpuStage } from "./gpu-stage.ts";

/**
 * The GPU for a test file, or null to skip its GPU tests. With VQ_REQUIRE_GPU=1 (as CI
 * sets it) a missing adapter fails the run instead of skipping.
 */
export async function gpuForTests(options: { fresh?: boolean } = {}): Promise<GpuContext | null> {
  try {
    return options.fresh ? await acquireGpu() : await sharedGpu();
  } catch (e) {
    if (process.env.VQ_REQUIRE_GPU === "1" || !isNoAdapterError(e)) throw e;
    console.warn(`skipping GPU tests: ${(e as Error).message}`);
    return null;
  }
}

/**
 * Runs a test harness kernel once: `code`'s `main` reads `input` (binding 0) and writes
 * `outputWords` words (binding 1), which come back. For checking a WGSL function against
 * its CPU twin over many cases.
 */
export async function runWordKernel(gpu: GpuContext, code: string, input: Uint32Array<ArrayBuffer>, outputWords: number, workgroups: number): Promise<Uint32Array> {
  const { device } = gpu;
  const pipeline = device.createComputePipeline({ layout: "auto", compute: { module: device.createShaderModule({ code }), entryPoint: "main" } });
  const inBuffer = device.createBuffer({ size: input.byteLength, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(inBuffer, 0, input);
  const outBuffer = device.createBuffer({ size: outputWords * 4, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
  const readback = device.createBuffer({ size: outputWords * 4, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const encoder = device.createCommandEncoder();
  const pass = encoder.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: inBuffer } }, { binding: 1, resource: { buffer: outBuffer } }] }));
  pass.dispatchWorkgroups(workgroups);
  pass.end();
  encoder.copyBufferToBuffer(outBuffer, 0, readback, 0, outputWords * 4);
  device.queue.submit([encoder.finish()]);
  await readback.mapAsync(GPUMapMode.READ);
  const words = new Uint32Array(readback.getMappedRange()).slice();
  readback.unmap();
  for (const b of [inBuffer, outBuffer, readback]) b.destroy();
  gpu.assertHealthy();
  return words;
}

/**
 * GPU time per pass label, in ms per frame, for one frame pair scored `frames` times by
 * `stages` (after 3 frames of warm-up): the per-kernel table of the packages' benchmarks.
 */
export async function passTimesPerFrame(gpu: GpuContext, stages: GpuStage[], pair: PicturePair, frames: number): Promise<Map<string, number>> {
  const runner = new GpuFrameRunner(gpu, stages, { profile: true });
  await runner.init(pair.ref.format);
  const collector = new FeatureCollector();
  for (let i = 0; i < 3; i++) await runner.submit(pair, i, collector);
  await runner.flush(collector);
  runner.gpuTimeNs.clear();
  for (let i = 0; i < frames; i++) await runner.submit(pair, 3 + i, collector);
  await runner.flush(collector);
  await runner.close();
  return new Map([...runner.gpuTimeNs].map(([label, ns]) => [label, ns / 1e6 / frames]));
}
