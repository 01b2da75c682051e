import { describe, expect, test } from "bun:test";
import { seededRandom } from "@vq/core/testing";
import type { GpuContext } from "@vq/gpu-core";
import { gpuForTests } from "@vq/gpu-core/testing";
import { admSettings } from "../cpu/adm-cpu.ts";
import { admGeometry } from "./adm-gpu-geometry.ts";
import { FLOAT_EMULATION_CODE } from "./adm-gpu-kernels.ts";
import { admParams } from "./adm-gpu-params.ts";
import { orientationMatches } from "../numerics/decouple.ts";
import { admOptions } from "../definition.ts";
import { int64ToFloat32 } from "../numerics/int64.ts";

/**
 * The GPU twin's integer emulation of libvmaf's float and double steps
 * (shaders/adm/float-emulation.wgsl) against the CPU reference on chosen inputs: the
 * 1-degree test near 1 degree and at every magnitude, int64 to float rounding (ties
 * included), and the double product with the enhancement gain where it rounds up to an
 * integer, the rounding of the 72-bit product in the angle test. Content-level tests
 * rarely reach these corners.
 */

const HARNESS = `
@group(0) @binding(3) var<uniform> params: AdmParams;
@group(0) @binding(10) var<storage, read> inputs: array<u32>;
@group(0) @binding(11) var<storage, read_write> outputs: array<u32>;

fn arg(i: u32) -> i32 { return bitcast<i32>(inputs[i]); }

@compute @workgroup_size(64)
fn angle_test(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  if (i >= arrayLength(&outputs)) { return; }
  let oh = arg(4u * i); let ov = arg(4u * i + 1u); let th = arg(4u * i + 2u); let tv = arg(4u * i + 3u);
  let dp = u64_add(i64_mul(oh, th), i64_mul(ov, tv));
  let o = u64_add(i64_mul(oh, oh), i64_mul(ov, ov));
  let t = u64_add(i64_mul(th, th), i64_mul(tv, tv));
  outputs[i] = select(0u, 1u, angle_flag(dp, o, t));
}

@compute @workgroup_size(64)
fn gain_test(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  if (i >= arrayLength(&outputs)) { return; }
  outputs[i] = gain_floor(inputs[i]);
}

@compute @workgroup_size(64)
fn double_test(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  if (3u * i >= arrayLength(&outputs)) { return; }
  let s = round_to_double(vec3u(inputs[3u * i], inputs[3u * i + 1u], inputs[3u * i + 2u]));
  outputs[3u * i] = s.m.x;
  outputs[3u * i + 1u] = s.m.y;
  outputs[3u * i + 2u] = bitcast<u32>(s.e);
}

@compute @workgroup_size(64)
fn float_test(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  if (2u * i >= arrayLength(&outputs)) { return; }
  let s = to_float24(vec2u(inputs[2u * i], inputs[2u * i + 1u]));
  outputs[2u * i] = s.m;
  outputs[2u * i + 1u] = bitcast<u32>(s.e);
}
`;

async function runHarness(gpu: GpuContext, entryPoint: string, gain: number, input: Uint32Array<ArrayBuffer>, outputWords: number): Promise<Uint32Array> {
  const device = gpu.device;
  const module = device.createShaderModule({ code: FLOAT_EMULATION_CODE + HARNESS });
  const pipeline = device.createComputePipeline({ layout: "auto", compute: { module, entryPoint } });
  const params = admParams(admGeometry(64, 64), 64, 8, admSettings(admOptions.resolve({ adm_enhn_gain_limit: gain })))[0]!;
  const uniform = device.createBuffer({ size: params.byteLength, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(uniform, 0, params);
  const inBuf = device.createBuffer({ size: input.byteLength, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(inBuf, 0, input);
  const outBuf = device.createBuffer({ size: outputWords * 4, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
  const readback = device.createBuffer({ size: outputWords * 4, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const entries = [
    { binding: 10, resource: { buffer: inBuf } },
    { binding: 11, resource: { buffer: outBuf } },
  ];
  // the conversions alone read no constants
  if (entryPoint === "angle_test" || entryPoint === "gain_test") entries.push({ binding: 3, resource: { buffer: uniform } });
  const encoder = device.createCommandEncoder();
  const pass = encoder.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries }));
  pass.dispatchWorkgroups(Math.ceil(outputWords / 64));
  pass.end();
  encoder.copyBufferToBuffer(outBuf, 0, readback, 0, outputWords * 4);
  device.queue.submit([encoder.finish()]);
  await readback.mapAsync(GPUMapMode.READ);
  const out = new Uint32Array(readback.getMappedRange().slice(0));
  readback.unmap();
  for (const b of [uniform, inBuf, outBuf, readback]) b.destroy();
  return out;
}

// Deterministic xorshift so a failure reproduces.
const random = seededRandom(987654321);
const int32 = (bits: number) => Math.floor((random() - 0.5) * 2 ** bits) | 0;

const gpu = await gpuForTests();
const TIMEOUT = 600_000;

describe.skipIf(!gpu)("libvmaf's float steps, emulated in integers on the GPU", () => {
  test("the 1-degree test equals the CPU's on 40k coefficient pairs", async () => {
    const cases: number[][] = [];
    const extremes = [0, 1, -1, 32767, -32768, 2 ** 26, -(2 ** 26), 2147483647, -2147483648];
    for (const a of extremes) for (const b of extremes) cases.push([a, b, b, a], [a, a, b, b], [a, b, a, b]);
    for (let k = 0; k < 20000; k++) {
      const bits = 2 + Math.floor(random() * 31);
      cases.push([int32(bits), int32(bits), int32(bits), int32(bits)]);
    }
    // near 1 degree at every magnitude: o along a random direction, t turned by 1 degree +- a little
    for (let k = 0; k < 20000; k++) {
      const scale = 2 ** (4 + random() * 26); // below 2^30: t stays in int32
      const phi = random() * 2 * Math.PI;
      const turn = ((1 + (random() - 0.5) * 1e-3) * Math.PI) / 180;
      const stretch = 0.5 + random() * 1.4;
      cases.push([Math.round(scale * Math.cos(phi)), Math.round(scale * Math.sin(phi)), Math.round(scale * stretch * Math.cos(phi + turn)), Math.round(scale * stretch * Math.sin(phi + turn))]);
    }
    const out = await runHarness(gpu!, "angle_test", 100, Uint32Array.from(cases.flat(), (v) => v >>> 0), cases.length);
    let matches = 0;
    const wrong = cases.filter((c, i) => {
      const expected = orientationMatches(c[0]!, c[1]!, c[2]!, c[3]!);
      if (expected) matches++;
      return (out[i] === 1) !== expected;
    });
    expect(wrong).toEqual([]);
    expect(matches).toBeGreaterThan(5000); // both outcomes well represented
    expect(matches).toBeLessThan(cases.length - 5000);
  }, TIMEOUT);

  test("int64 to float rounds to nearest, ties to even, at every bit length", async () => {
    const values: bigint[] = [0n, 1n, (1n << 24n) - 1n, 1n << 24n, (1n << 24n) + 1n, (1n << 25n) + 1n, (1n << 25n) + 3n, (1n << 63n) - 1n];
    for (let bits = 25; bits <= 63; bits++) {
      const top = 1n << BigInt(bits - 1);
      const half = 1n << BigInt(bits - 25); // half of the last kept bit
      values.push(top + half, top + 3n * half, top + half + 1n, top + half - 1n, (top << 1n) - 1n);
      for (let k = 0; k < 50; k++) values.push(top + BigInt(Math.floor(random() * 2 ** 30)) * (top >> 30n) + BigInt(Math.floor(random() * 2 ** 20)));
    }
    const input = new Uint32Array(values.length * 2);
    values.forEach((v, i) => {
      input[2 * i] = Number(v & 0xffffffffn);
      input[2 * i + 1] = Number(v >> 32n);
    });
    const out = await runHarness(gpu!, "float_test", 100, input, values.length * 2);
    const wrong = values.filter((v, i) => out[2 * i]! * 2 ** (out[2 * i + 1]! | 0) !== int64ToFloat32(v));
    expect(wrong).toEqual([]);
  }, TIMEOUT);

  test("integers up to 84 bits to double round to nearest, ties to even", async () => {
    const values: bigint[] = [0n, 1n, (1n << 53n) - 1n, 1n << 53n, (1n << 53n) + 1n, (1n << 54n) + 2n, (1n << 54n) + 6n, (1n << 84n) - 1n];
    for (let bits = 54; bits <= 84; bits++) {
      const top = 1n << BigInt(bits - 1);
      const half = 1n << BigInt(bits - 54);
      values.push(top + half, top + 3n * half, top + half + 1n, top + half - 1n, (top << 1n) - 1n);
      for (let k = 0; k < 50; k++) values.push(top + ((BigInt(Math.floor(random() * 2 ** 30)) * top) >> 30n) + BigInt(Math.floor(random() * 2 ** 30)));
    }
    const input = new Uint32Array(values.length * 3);
    values.forEach((v, i) => {
      for (let w = 0; w < 3; w++) input[3 * i + w] = Number((v >> BigInt(32 * w)) & 0xffffffffn);
    });
    const out = await runHarness(gpu!, "double_test", 100, input, values.length * 3);
    const wrong = values.filter((v, i) => (out[3 * i]! + out[3 * i + 1]! * 2 ** 32) * 2 ** (out[3 * i + 2]! | 0) !== Number(v));
    expect(wrong).toEqual([]);
  }, TIMEOUT);

  // 4/3 as a double is 4/3 - 2^-52/3: n * gain for n = 3k lies just below 4k and the double
  // product rounds up to it, so floor() differs from the exact product's
  for (const gain of [1, 4 / 3, 1.2345, 1.0000001, 99.99999999999999, 100, 37.5]) {
    test(`n * ${gain} in double, floored, as C converts it`, async () => {
      const ns = [0, 1, 2, 3, 7, 1000, 2 ** 24 + 1, 2 ** 31 - 1, 2 ** 31];
      for (let k = 0; k < 4000; k++) ns.push(Math.floor(random() * 2 ** (1 + Math.floor(random() * 31))));
      for (let k = 0; k < 1000; k++) ns.push(3 * Math.floor(random() * 2 ** (1 + Math.floor(random() * 29))));
      const out = await runHarness(gpu!, "gain_test", gain, Uint32Array.from(ns), ns.length);
      const wrong = ns.filter((n, i) => out[i] !== Math.min(Math.floor(n * gain), 2 ** 31));
      expect(wrong).toEqual([]);
      if (gain === 4 / 3) {
        const exactFloor = (n: number) => Number((BigInt(n) * 4n) / 3n - (BigInt(n) % 3n === 0n ? 1n : 0n));
        expect(ns.filter((n) => n > 0 && n % 3 === 0 && Math.floor(n * gain) !== exactFloor(n)).length).toBeGreaterThan(900);
      }
    }, TIMEOUT);
  }
});
