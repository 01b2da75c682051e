import { afterEach, expect, test } from "bun:test";
import { isAllocationFailure } from "../limits.ts";
import { cpuKernels, fastMemoriesNote, KernelMemoryLayout, kernelsModule, reserveMemory, setCpuKernels, wasmSimdSupported } from "./wasm-kernels.ts";

// (module (func (export "f") (result v128) v128.const i32x4 0 0 0 0))
const SIMD_MODULE = Buffer.from([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 7, 5, 1, 1, 102, 0, 0, 10, 22, 1, 20, 0, 253, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 11]).toString("base64");
const saved = process.env.VQ_CPU_KERNELS;

afterEach(() => {
  setCpuKernels(undefined);
  if (saved === undefined) delete process.env.VQ_CPU_KERNELS;
  else process.env.VQ_CPU_KERNELS = saved;
});

test("this runtime has WebAssembly SIMD, and auto picks the kernels", () => {
  delete process.env.VQ_CPU_KERNELS;
  expect(wasmSimdSupported()).toBe(true);
  expect(cpuKernels()).toBe("auto");
  expect(kernelsModule("probe", SIMD_MODULE)).toBeInstanceOf(WebAssembly.Module);
});

test("VQ_CPU_KERNELS=ts and setCpuKernels('ts') pick the TypeScript reference", () => {
  process.env.VQ_CPU_KERNELS = "ts";
  expect(kernelsModule("probe", SIMD_MODULE)).toBeUndefined();
  process.env.VQ_CPU_KERNELS = "wasm";
  setCpuKernels("ts");
  expect(kernelsModule("probe", SIMD_MODULE)).toBeUndefined();
});

test("forced wasm that cannot compile is a one-line error; auto falls back", () => {
  const broken = Buffer.from("not wasm").toString("base64");
  process.env.VQ_CPU_KERNELS = "wasm";
  expect(() => kernelsModule("broken", broken)).toThrow("VQ_CPU_KERNELS=wasm: broken's WebAssembly SIMD kernels cannot run in this runtime");
  delete process.env.VQ_CPU_KERNELS;
  expect(kernelsModule("broken", broken)).toBeUndefined();
});

test("an unknown VQ_CPU_KERNELS is an error naming it", () => {
  process.env.VQ_CPU_KERNELS = "simd";
  expect(() => cpuKernels()).toThrow("VQ_CPU_KERNELS=simd: expected one of auto, wasm, ts");
});

test("a refused memory grow is an allocation failure (vq's 'not enough memory'), a granted one leaves room", () => {
  const memory = new WebAssembly.Memory({ initial: 1, maximum: 4 });
  reserveMemory(memory, 3 * 65536 + 1);
  expect(memory.buffer.byteLength).toBe(4 * 65536);
  let error: unknown;
  try {
    reserveMemory(memory, 5 * 65536);
  } catch (e) {
    error = e;
  }
  expect(isAllocationFailure(error)).toBe(true);
  expect((error as Error).message).toStartWith("out of memory: WebAssembly kernels' memory of 1 MiB refused");
});

test("a kernel memory layout stays aligned and in order past 2^31 bytes", () => {
  const layout = new KernelMemoryLayout(1000, 64);
  const at = [layout.take(2 ** 31 - 5), layout.take(3), layout.take(2 ** 30 + 1), layout.take(16)];
  // a 32-bit `& ~15` gave negative addresses from the second buffer on
  expect(at).toEqual([1008, 2 ** 31 + 1072, 2 ** 31 + 1152, 2 ** 31 + 2 ** 30 + 1232]);
  expect(layout.end).toBe(2 ** 31 + 2 ** 30 + 1232 + 16 + 64);
});

test("under Bun, a run whose kernels' memories pass the 8 fast ones is told how to start Bun (ADR 0044)", () => {
  const variable = "BUN_JSC_maxNumWasmFastMemories";
  const own = process.env[variable];
  try {
    delete process.env[variable];
    expect(fastMemoriesNote(3, 2)).toBeUndefined(); // VMAF on 2 threads: 6 memories
    expect(fastMemoriesNote(3, 3)).toContain(`start Bun with ${variable}=1024`);
    setCpuKernels("ts");
    expect(fastMemoriesNote(3, 16)).toBeUndefined(); // no kernels, no memories
    setCpuKernels(undefined);
    process.env[variable] = "1024";
    expect(fastMemoriesNote(3, 16)).toBeUndefined();
  } finally {
    if (own === undefined) delete process.env[variable];
    else process.env[variable] = own;
  }
});
