/**
 * Which CPU kernels the metric packages run (ADR 0040): their WebAssembly SIMD kernels
 * where the runtime has WebAssembly SIMD, else the TypeScript reference they are held to.
 * VQ_CPU_KERNELS=ts or =wasm forces one (tests run both); setCpuKernels does the same where
 * there is no environment (a browser).
 */
import { VqError } from "../errors.ts";
import { alignUp, type Plane } from "../picture.ts";

export type CpuKernels = "auto" | "wasm" | "ts";
const CHOICES: readonly CpuKernels[] = ["auto", "wasm", "ts"];

let chosen: CpuKernels | undefined;

/** Forces a choice for this thread (a worker reads its own environment); undefined goes back to the environment's. */
export function setCpuKernels(choice: CpuKernels | undefined): void {
  chosen = choice;
}

/** The choice: setCpuKernels's, else VQ_CPU_KERNELS, else auto. */
export function cpuKernels(): CpuKernels {
  if (chosen) return chosen;
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.VQ_CPU_KERNELS;
  if (env === undefined || env === "") return "auto";
  if (!(CHOICES as readonly string[]).includes(env)) throw new VqError(`VQ_CPU_KERNELS=${env}: expected one of ${CHOICES.join(", ")}`);
  return env as CpuKernels;
}

/** The smallest module using a v128 instruction: (func (result v128) v128.const 0). */
const SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 22, 1, 20, 0, 253, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 11]);

let simd: boolean | undefined;

/** Whether this runtime compiles WebAssembly SIMD. */
export function wasmSimdSupported(): boolean {
  simd ??= typeof WebAssembly === "object" && WebAssembly.validate(SIMD_PROBE);
  return simd;
}

/** The variable Bun reads JavaScriptCore's count of fast WebAssembly memories from, at its start. */
const FAST_MEMORIES_VARIABLE = "BUN_JSC_maxNumWasmFastMemories";

/**
 * Under Bun, a note for a run holding `sets` sets of `extractors` CPU extractors at once (its
 * workers, or a ladder's lanes) when their kernels' memories, at most one an extractor, may
 * pass JavaScriptCore's 8 fast ones: the rest check bounds on every access, 15-40 % slower
 * (adr/0044-bun-fast-wasm-memories.md). Bun reads the count only when it starts, so the
 * note says how to start it; the `vq` command does so itself.
 */
export function fastMemoriesNote(extractors: number, sets: number): string | undefined {
  const g = globalThis as { Bun?: unknown; process?: { env?: Record<string, string | undefined> } };
  if (extractors * sets <= 8 || g.Bun === undefined || g.process?.env?.[FAST_MEMORIES_VARIABLE]) return undefined;
  if (cpuKernels() === "ts" || !wasmSimdSupported()) return undefined;
  return `${sets} sets of CPU extractors may pass Bun's 8 fast WebAssembly memories, and the kernels past them run slower: start Bun with ${FAST_MEMORIES_VARIABLE}=1024 (the vq command does)`;
}

const modules = new Map<string, WebAssembly.Module | null>();

/**
 * The compiled kernels given as base64, once per thread, or undefined where the TypeScript
 * reference runs instead (forced, no SIMD, or a runtime that refuses synchronous
 * compilation, as a browser's main thread may). Forced `wasm` that cannot run is an error.
 */
export function kernelsModule(name: string, base64: string): WebAssembly.Module | undefined {
  const choice = cpuKernels();
  if (choice === "ts") return undefined;
  let module = modules.get(name);
  if (module === undefined) {
    module = null;
    if (wasmSimdSupported()) {
      try {
        module = new WebAssembly.Module(decodeBase64(base64));
      } catch {
        module = null;
      }
    }
    modules.set(name, module);
  }
  if (!module && choice === "wasm") throw new VqError(`VQ_CPU_KERNELS=wasm: ${name}'s WebAssembly SIMD kernels cannot run in this runtime`);
  return module ?? undefined;
}

function decodeBase64(base64: string): Uint8Array<ArrayBuffer> {
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/**
 * A bump layout of 16-byte-aligned buffers in a kernels' memory, from `end` (the module's
 * heap base) on, `slack` bytes left after each buffer for SIMD steps that read past its end.
 * Plain arithmetic, no 32-bit operators: a large picture's layout passes 2^31 bytes.
 */
export class KernelMemoryLayout {
  constructor(
    public end: number,
    private readonly slack = 0,
  ) {}

  take(bytes: number): number {
    const at = alignUp(this.end, 16);
    this.end = at + bytes + this.slack;
    return at;
  }
}

/**
 * Grows a kernels' memory to hold `bytes`. The engines' own errors for a refused grow
 * (past 4 GiB, or past what the host gives) name no allocation; this one is a RangeError
 * that isAllocationFailure recognises, so the run ends with vq's "not enough memory".
 */
export function reserveMemory(memory: WebAssembly.Memory, bytes: number): void {
  const mib = Math.ceil(bytes / 2 ** 20);
  // a 32-bit WebAssembly memory holds 4 GiB whatever the host has: say what runs instead
  if (bytes > 2 ** 32) throw new RangeError(`out of memory: WebAssembly kernels' memory of ${mib} MiB is past the 4096 MiB one can hold (VQ_CPU_KERNELS=ts scores with the TypeScript code)`);
  const pages = Math.ceil(bytes / 65536) - memory.buffer.byteLength / 65536;
  if (pages <= 0) return;
  try {
    memory.grow(pages);
  } catch (e) {
    throw new RangeError(`out of memory: WebAssembly kernels' memory of ${mib} MiB refused (${(e as Error).message})`);
  }
}

/**
 * A luma plane copied into kernels' memory at byte address `target`, rows `stride` samples
 * apart: u8 when `narrow` (8-bit samples: a plain copy), else u16. One copy a frame; nothing allocated.
 */
export function copyPlaneIntoKernels(buffer: ArrayBuffer, plane: Plane, target: number, stride: number, narrow: boolean): void {
  const { data, width, height } = plane;
  const view = narrow ? new Uint8Array(buffer, target, stride * height) : new Uint16Array(buffer, target, stride * height);
  if (plane.stride === width && stride === width) {
    view.set(data.subarray(0, width * height));
    return;
  }
  for (let y = 0; y < height; y++) view.set(data.subarray(y * plane.stride, y * plane.stride + width), y * stride);
}
