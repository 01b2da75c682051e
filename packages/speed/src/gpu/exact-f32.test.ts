import { describe, expect, test } from "bun:test";
import { computePipeline } from "@vq/gpu-core";
import { gpuForTests } from "@vq/gpu-core/testing";
import exactWgsl from "../../../../shaders/speed/exact-f32.wgsl" with { type: "text" };

/**
 * exact-f32.wgsl's division and roots against C's arithmetic as JavaScript's doubles give
 * it (the operation in double, then stored as float): division and square root must be
 * correctly rounded for every input, 1 / sqrt must agree on every input here (it is
 * accurate to about 2^-46, so a disagreement would need an input within that of a tie).
 */
const gpu = await gpuForTests();
const f32 = Math.fround;

const KERNEL = {
  label: "exact-f32 test",
  code: `${exactWgsl}
struct TestParams { zero: u32 }
@group(0) @binding(0) var<uniform> params: TestParams;
@group(0) @binding(1) var<storage, read> input: array<vec2f>;
@group(0) @binding(2) var<storage, read_write> output: array<vec4f>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3u) {
  if (id.x < arrayLength(&input)) {
    let ab = input[id.x];
    let x = abs(ab.x);
    output[id.x] = vec4f(div_rn(ab.x, ab.y), sqrt_rn(x), rsqrt_rn(x), 0.0);
  }
}`,
  entryPoint: "main",
};

/** Deterministic floats: significand bits at random, exponent in [lo, hi], either sign. */
function floats(count: number, lo: number, hi: number, seed: number): Float32Array {
  let s = seed >>> 0;
  const next = () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s;
  };
  const out = new Float32Array(count);
  const bits = new Uint32Array(out.buffer);
  for (let i = 0; i < count; i++) {
    const e = lo + (next() % (hi - lo + 1));
    bits[i] = ((next() & 1) << 31) | ((e + 127) << 23) | (next() & 0x7fffff);
  }
  return out;
}

/** Inputs that stress the edges: extreme significands, exact quotients, 1 + t^2 of rotations. */
function edgeCases(): number[][] {
  const cases: number[][] = [];
  const sig = [1, f32(1 + 2 ** -23), f32(2 - 2 ** -23), f32(1.5), f32(Math.SQRT2), f32(1 + 2 ** -22)];
  for (const a of sig) for (const b of sig) for (const e of [-20, 0, 7, 30]) cases.push([a * 2 ** e, b], [-a, b * 2 ** e]);
  for (let k = 1; k < 200; k++) cases.push([f32(k * 0.37), f32(0.37)], [f32(k * k), 1], [f32(1 + f32(f32(k / 200) * f32(k / 200))), 3]);
  return cases;
}

async function run(inputs: Float32Array<ArrayBuffer>): Promise<Float32Array> {
  const device = gpu!.device;
  const n = inputs.length / 2;
  const params = device.createBuffer({ size: 16, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  const input = device.createBuffer({ size: inputs.byteLength, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
  const output = device.createBuffer({ size: n * 16, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
  const readback = device.createBuffer({ size: n * 16, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(params, 0, new Uint32Array(4));
  device.queue.writeBuffer(input, 0, inputs);
  const pipeline = computePipeline(device, KERNEL);
  const encoder = device.createCommandEncoder();
  const pass = encoder.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, device.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: [params, input, output].map((buffer, binding) => ({ binding, resource: { buffer } })),
  }));
  pass.dispatchWorkgroups(Math.ceil(n / 64));
  pass.end();
  encoder.copyBufferToBuffer(output, 0, readback, 0, n * 16);
  device.queue.submit([encoder.finish()]);
  await readback.mapAsync(GPUMapMode.READ);
  const out = new Float32Array(readback.getMappedRange().slice(0));
  readback.unmap();
  for (const b of [params, input, output, readback]) b.destroy();
  return out;
}

describe.skipIf(!gpu)("exact-f32.wgsl", () => {
  test("div_rn and sqrt_rn are correctly rounded, rsqrt_rn is C's 1.0 / sqrt(x) stored as float", async () => {
    const a = floats(1 << 17, -40, 40, 1);
    const b = floats(1 << 17, -40, 40, 2);
    const rotations = floats(1 << 15, -12, 0, 3).map((t) => f32(1 + f32(t * t)));
    const pairs: number[] = [];
    for (let i = 0; i < a.length; i++) pairs.push(a[i]!, b[i]!);
    for (const x of rotations) pairs.push(x, 1);
    for (const c of edgeCases()) pairs.push(c[0]!, c[1]!);
    const inputs = Float32Array.from(pairs);
    const out = await run(inputs);
    const wrong = { div: 0, sqrt: 0, rsqrt: 0 };
    for (let i = 0; i < inputs.length / 2; i++) {
      const x = inputs[2 * i]!;
      const y = inputs[2 * i + 1]!;
      if (!Object.is(out[4 * i], f32(x / y))) wrong.div++;
      if (!Object.is(out[4 * i + 1], f32(Math.sqrt(Math.abs(x))))) wrong.sqrt++;
      if (!Object.is(out[4 * i + 2], f32(1 / Math.sqrt(Math.abs(x))))) wrong.rsqrt++;
    }
    expect(wrong).toEqual({ div: 0, sqrt: 0, rsqrt: 0 });
  }, 120_000);
});
