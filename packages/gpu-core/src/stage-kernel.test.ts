import { expect, test } from "bun:test";
import { stageKernel, wgslBindings } from "./stage-kernel.ts";
import { gpuForTests } from "./testing.ts";

const gpu = await gpuForTests();

const CODE = `
@group(0) @binding(0) var<storage, read> source: array<u32>;
@group(0) @binding(3) var<uniform> params: vec4u;
@group(0)
  @binding(5) var<storage, read_write> sums: array<u32>;
@compute @workgroup_size(1) fn main() { sums[0] = source[0] + params.x; }
@compute @workgroup_size(1) fn just_sums() { sums[0] = 1u; }`;

test("reads the bindings' names from the WGSL", () => {
  expect([...wgslBindings(CODE)]).toEqual([
    ["source", 0],
    ["params", 3],
    ["sums", 5],
  ]);
});

test.skipIf(!gpu)("builds a bind group once per set of buffers, offsets and sizes, and binds by name", async () => {
  const { device } = gpu!;
  const kernel = stageKernel(device, { label: "stage kernel test", code: CODE });
  const source = device.createBuffer({ size: 512, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
  const params = device.createBuffer({ size: 16, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  const sums = device.createBuffer({ size: 512, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
  const readback = device.createBuffer({ size: 4, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(source, 256, Uint32Array.of(40));
  device.queue.writeBuffer(params, 0, Uint32Array.of(2, 0, 0, 0));
  const at = (offset: number) => ({ source: { buffer: source, offset, size: 256 }, params, sums });
  const first = kernel.bindGroup(at(0));
  expect(kernel.bindGroup(at(0))).toBe(first);
  expect(kernel.bindGroup(at(256))).not.toBe(first);
  // the same buffers in other roles are another bind group
  const whole = kernel.bindGroup({ source, params, sums });
  expect(kernel.bindGroup({ source: sums, params, sums: source })).not.toBe(whole);
  // order of the names does not matter to the binding numbers
  const encoder = device.createCommandEncoder();
  const labels: string[] = [];
  kernel.dispatch({ beginComputePass: (label) => (labels.push(label), encoder.beginComputePass({ label })) }, { sums, params, source: { buffer: source, offset: 256, size: 256 } }, 1);
  encoder.copyBufferToBuffer(sums, 0, readback, 0, 4);
  device.queue.submit([encoder.finish()]);
  await readback.mapAsync(GPUMapMode.READ);
  expect(new Uint32Array(readback.getMappedRange())[0]).toBe(42);
  readback.unmap();
  expect(labels).toEqual(["stage kernel test"]);
  // a bind group made once, for resources that never change, is dispatched as it is
  const fixed = kernel.bindGroup(at(256));
  const pass = device.createCommandEncoder().beginComputePass();
  expect(() => kernel.dispatchIn(pass, fixed, 1)).not.toThrow();
  pass.end();
  expect(() => kernel.bindGroup({ source, params, total: sums })).toThrow('stage kernel test: its WGSL declares no binding "total"');
  // an entry point using fewer bindings binds only those it declares it uses
  const sumsOnly = stageKernel(device, { label: "stage kernel sums", code: CODE, entryPoint: "just_sums", uses: ["sums"] });
  expect(() => sumsOnly.bindGroup({ source, params, sums })).not.toThrow();
  expect(() => sumsOnly.bindGroup({ source })).toThrow('stage kernel sums: no resource for its binding "sums"');
  for (const b of [source, params, sums, readback]) b.destroy();
});
