import { describe, expect, test } from "bun:test";
import { compileQueuedPipelines, computePipeline, computePipelines, pipelineCacheSize } from "./pipeline-cache.ts";
import { retainedInstanceCount } from "./device.ts";
import { BufferPool } from "./buffer-pool.ts";
import { gpuForTests } from "./testing.ts";

const gpu = await gpuForTests();

const DOUBLE = {
  label: "test double",
  code: `@group(0) @binding(0) var<storage, read_write> v: array<u32>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3u) {
  if (id.x < arrayLength(&v)) { v[id.x] = v[id.x] * 2u + 1u; }
}`,
};

async function roundTrip(device: GPUDevice, input: Uint32Array<ArrayBuffer>): Promise<Uint32Array> {
  const storage = device.createBuffer({ size: input.byteLength, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC });
  const readback = device.createBuffer({ size: input.byteLength, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(storage, 0, input);
  const pipeline = computePipeline(device, DOUBLE);
  const encoder = device.createCommandEncoder();
  const pass = encoder.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: storage } }] }));
  pass.dispatchWorkgroups(Math.ceil(input.length / 64));
  pass.end();
  encoder.copyBufferToBuffer(storage, 0, readback, 0, input.byteLength);
  device.queue.submit([encoder.finish()]);
  await readback.mapAsync(GPUMapMode.READ);
  const out = new Uint32Array(readback.getMappedRange().slice(0));
  readback.unmap();
  storage.destroy();
  readback.destroy();
  return out;
}

describe.skipIf(!gpu)("gpu-core", () => {
  test("survives garbage collection between GPU completions (Bun + Dawn)", async () => {
    const input = Uint32Array.from({ length: 1000 }, (_, i) => i);
    for (let round = 0; round < 5; round++) {
      Bun.gc(true);
      const out = await roundTrip(gpu!.device, input);
      expect(out[999]).toBe(999 * 2 + 1);
    }
    expect(retainedInstanceCount()).toBeGreaterThanOrEqual(1);
  });

  test("builds a pipeline once per kernel and device", () => {
    const a = computePipeline(gpu!.device, DOUBLE);
    const n = pipelineCacheSize(gpu!.device);
    const b = computePipeline(gpu!.device, DOUBLE);
    expect(b).toBe(a);
    expect(pipelineCacheSize(gpu!.device)).toBe(n);
    computePipeline(gpu!.device, { ...DOUBLE, code: DOUBLE.code + "\n// variant" });
    expect(pipelineCacheSize(gpu!.device)).toBe(n + 1);
  });

  test("builds several pipelines at once, each once, and computePipeline then finds them", async () => {
    const specs = [1, 2, 3].map((k) => ({ ...DOUBLE, code: `${DOUBLE.code}\n// parallel ${k}` }));
    const n = pipelineCacheSize(gpu!.device);
    const [built, again] = await Promise.all([computePipelines(gpu!.device, specs), computePipelines(gpu!.device, specs)]);
    expect(pipelineCacheSize(gpu!.device)).toBe(n + 3);
    expect(again).toEqual(built);
    expect(specs.map((s) => computePipeline(gpu!.device, s))).toEqual(built);
    expect(pipelineCacheSize(gpu!.device)).toBe(n + 3);
  });

  test("compiles queued pipelines on the calling thread beside Dawn's, each once, and they compute", async () => {
    // more kernels than Dawn is handed at once: the calling thread builds the rest
    const specs = [1, 2, 3, 4, 5, 6, 7].map((k) => ({ ...DOUBLE, code: `${DOUBLE.code}\n// lanes ${k}${"-".repeat(k)}` }));
    const n = pipelineCacheSize(gpu!.device);
    const building = computePipelines(gpu!.device, specs);
    await compileQueuedPipelines(gpu!.device);
    const built = await building;
    expect(new Set(built).size).toBe(7);
    expect(pipelineCacheSize(gpu!.device)).toBe(n + 7);
    expect(specs.map((s) => computePipeline(gpu!.device, s))).toEqual(built);
    expect(pipelineCacheSize(gpu!.device)).toBe(n + 7);
    expect((await roundTrip(gpu!.device, Uint32Array.of(20)))[0]).toBe(41);
  });

  test("a pipeline the device rejects fails its own build, on Dawn's threads or the calling thread", async () => {
    const missing = (k: number, pad: number) => ({ label: `no such entry ${k}`, code: `${DOUBLE.code}\n// ${"x".repeat(pad)}`, entryPoint: "not_there" });
    const fine = [1, 2, 3, 4].map((k) => ({ ...DOUBLE, code: `${DOUBLE.code}\n// fine ${k}${"-".repeat(40 + k)}` }));
    // largest first: the first goes to Dawn's threads, the shortest to this thread's
    const specs = [missing(1, 200), ...fine, missing(2, 0)];
    const results = specs.map((s) => computePipelines(gpu!.device, [s]).then(() => "built", (e: Error) => e.message));
    await compileQueuedPipelines(gpu!.device);
    const said = await Promise.all(results);
    expect(said.slice(1, 5)).toEqual(["built", "built", "built", "built"]);
    for (const m of [said[0]!, said[5]!]) expect(m).toMatch(/not_there|entry ?point/i);
    expect(said[5]).toContain("no such entry 2");
    gpu!.assertHealthy();
  });

  test("reuses buffers by size and usage", () => {
    const pool = new BufferPool(gpu!.device);
    const usage = GPUBufferUsage.STORAGE;
    for (let i = 0; i < 10; i++) {
      const a = pool.acquire(1024, usage);
      const b = pool.acquire(2048, usage);
      pool.release(a);
      pool.release(b);
    }
    expect(pool.createdCount).toBe(2);
    pool.destroy();
  });
});
