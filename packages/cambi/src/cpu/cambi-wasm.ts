import { copyPlaneIntoKernels, KernelMemoryLayout, kernelsModule, reserveMemory, type Plane } from "@vq/core";
import type { CambiOptions } from "../definition.ts";
import type { CambiPlan } from "../numerics/cambi-plan.ts";
import { RECIPROCAL } from "../numerics/reciprocal.ts";
import { visibleSteps } from "./c-values.ts";
import { CambiCpu, type CambiWorkspace, type CValueEngine, type ModeFilterEngine, type SpatialMaskEngine } from "./cambi-cpu.ts";
import { MaskSpans } from "./mask-spans.ts";
import { maskThreshold } from "./spatial-mask.ts";
import { CAMBI_KERNELS_WASM } from "./wasm/cambi-kernels.wasm.ts";

/** The kernels' exports (assembly/cambi-kernels.ts); pointers are byte addresses in `memory`. */
interface CambiKernels {
  readonly memory: WebAssembly.Memory;
  heapBase(): number;
  configure(
    steps: number, firstStep: number, weights: number, reciprocal: number, numDiffs: number, bandBase: number, bandSize: number,
    hist: number, histRows: number, start: number, end: number, code: number, count: number, slots: number, capacity: number,
    positions: number, values: number,
  ): void;
  compute(picture: number, rowStart: number, start: number, end: number, width: number, height: number, pad: number): void;
  cValueCount(): number;
  cValueSum(): number;
  spatialMask(picture: number, width: number, height: number, threshold: number, ring: number, columns: number, rowStart: number, start: number, end: number): number;
  maskedPixels(): number;
  modeFilter(picture: number, width: number, height: number, filtered: number, next: number, lines: number): void;
  antiDithered8(src: number, width: number, height: number, out: number): void;
}

/** The compiled kernels for this thread, or undefined where the TypeScript reference runs (core's kernelsModule). */
export function cambiKernelsModule(): WebAssembly.Module | undefined {
  return kernelsModule("cambi", CAMBI_KERNELS_WASM);
}

/** Bytes a SIMD step may read past a buffer's end. */
const SLACK = 16;

/** Throws unless every array lies in the kernels' memory (the workspace's pictures and mask do). */
function checkInKernels(kernels: CambiKernels, ...arrays: ArrayBufferView[]): void {
  for (const a of arrays) if (a.buffer !== kernels.memory.buffer) throw new Error("cambi: the WebAssembly kernels were given an array outside their memory");
}

/**
 * c-values (c-values.ts's CValues) on the WebAssembly kernels: the same list, in the
 * kernels' memory; the picture and the mask spans must be the workspace's, which live there.
 */
class WasmCValues implements CValueEngine {
  count = 0;
  sum = 0;

  constructor(
    private readonly kernels: CambiKernels,
    private readonly list: { positions: number; values: number },
  ) {}

  compute(image: Uint16Array, mask: MaskSpans, width: number, height: number, windowSize: number): void {
    const kernels = this.kernels;
    checkInKernels(kernels, image, mask.rowStart, mask.start, mask.end);
    kernels.compute(image.byteOffset, mask.rowStart.byteOffset, mask.start.byteOffset, mask.end.byteOffset, width, height, windowSize >> 1);
    this.count = kernels.cValueCount();
    this.sum = kernels.cValueSum();
  }

  writeDense(out: Float32Array, n: number): void {
    out.fill(0, 0, n);
    const buffer = this.kernels.memory.buffer;
    const positions = new Int32Array(buffer, this.list.positions, this.count);
    const values = new Float32Array(buffer, this.list.values, this.count);
    for (let j = 0; j < this.count; j++) out[positions[j]!] = values[j]!;
  }
}

/** The spatial mask (spatial-mask.ts's SpatialMask) on the kernels, its spans written straight into the workspace's MaskSpans. */
class WasmSpatialMask implements SpatialMaskEngine {
  constructor(
    private readonly kernels: CambiKernels,
    private readonly ring: number,
    private readonly columns: number,
  ) {}

  compute(image: Uint16Array, width: number, height: number, spans: MaskSpans): void {
    const kernels = this.kernels;
    checkInKernels(kernels, image, spans.rowStart, spans.start, spans.end);
    const n = kernels.spatialMask(image.byteOffset, width, height, maskThreshold(width, height), this.ring, this.columns, spans.rowStart.byteOffset, spans.start.byteOffset, spans.end.byteOffset);
    spans.written(height, n, kernels.maskedPixels());
  }
}

/**
 * The mode filter (mode-filter.ts's ModeFilter) on the kernels: always the whole picture
 * into `filtered` (eight samples a step cost less than finding the masked ones), whose
 * masked samples and next scale are the reference's.
 */
class WasmModeFilter implements ModeFilterEngine {
  constructor(
    private readonly kernels: CambiKernels,
    private readonly lines: number,
  ) {}

  run(image: Uint16Array, width: number, height: number, _mask: MaskSpans, filtered: Uint16Array, next: Uint16Array | null): Uint16Array {
    const kernels = this.kernels;
    checkInKernels(kernels, image, filtered, ...(next ? [next] : []));
    kernels.modeFilter(image.byteOffset, width, height, filtered.byteOffset, next ? next.byteOffset : 0, this.lines);
    return filtered;
  }
}

/**
 * A workspace in a new instance of the kernels (ADR 0040): the three pictures, the mask
 * spans (room for every span a picture can have, so MaskSpans never grows them), the mask's
 * rows, the plan's tables, the sliding histograms, the ring of code runs and room for a
 * c-value per pixel, all laid out once; the memory never grows afterwards, so the
 * pictures' views stay valid.
 */
export function wasmWorkspace(module: WebAssembly.Module, plan: CambiPlan): CambiWorkspace {
  const kernels = new WebAssembly.Instance(module).exports as unknown as CambiKernels;
  const { allocWidth: w, allocHeight: h, numDiffs, bandBase, bandSize } = plan;
  const n = w * h;
  const layout = new KernelMemoryLayout(kernels.heapBase(), SLACK);
  const pictures = [0, 1, 2].map(() => layout.take(n * 2));
  const steps = layout.take(bandSize * 4);
  const firstStep = layout.take(bandSize);
  const weights = layout.take(numDiffs * 4);
  const reciprocal = layout.take(RECIPROCAL.length * 4);
  const histRows = bandSize + 2 * numDiffs + 1;
  const hist = layout.take(histRows * w * 2);
  // rows i − pad − 1 to i + pad are live while row i is scored
  const slots = Math.max(plan.enc.windowSize, plan.src.windowSize) + 1;
  const runs = slots * w;
  const start = layout.take(runs * 4);
  const end = layout.take(runs * 4);
  const code = layout.take(runs * 4);
  const count = layout.take(slots * 4);
  // a row has at most ⌈w/2⌉ spans (a gap between two)
  const spanCapacity = h * ((w + 1) >> 1);
  const spans = { rowStart: layout.take((h + 1) * 4), start: layout.take(spanCapacity * 4), end: layout.take(spanCapacity * 4) };
  // the mask's ring of 7 flatness rows and its column sums, zero bytes before and after
  const ring = layout.take(7 * (w + 16));
  const columns = layout.take(w + 48);
  // an 8-bit luma plane, copied in as bytes (preprocessing)
  const luma = layout.take(n);
  // the mode filter's horizontal modes of three rows
  const lines = layout.take(3 * (w + 8) * 2);
  const list = { positions: layout.take(n * 4), values: layout.take(n * 4) };
  reserveMemory(kernels.memory, layout.end);
  const buffer = kernels.memory.buffer;
  const stepBits = visibleSteps(plan);
  new Uint32Array(buffer, steps, bandSize).set(stepBits);
  new Uint8Array(buffer, firstStep, bandSize).set(stepBits.map((bits) => (bits === 0 ? 0 : 31 - Math.clz32(bits & -bits))));
  new Int32Array(buffer, weights, numDiffs).set(plan.diffWeights);
  new Float32Array(buffer, reciprocal, RECIPROCAL.length).set(RECIPROCAL);
  kernels.configure(steps, firstStep, weights, reciprocal, numDiffs, bandBase, bandSize, hist, histRows, start, end, code, count, slots, w, list.positions, list.values);
  const [image, other, filtered] = pictures.map((at) => new Uint16Array(buffer, at, n));
  const mask = new MaskSpans(h, 0, {
    rowStart: new Int32Array(buffer, spans.rowStart, h + 1),
    start: new Int32Array(buffer, spans.start, spanCapacity),
    end: new Int32Array(buffer, spans.end, spanCapacity),
  });
  const antiDitheredFrom8Bit = (plane: Plane, out: Uint16Array) => {
    checkInKernels(kernels, out);
    copyPlaneIntoKernels(buffer, plane, luma, plane.width, true);
    kernels.antiDithered8(luma, plane.width, plane.height, out.byteOffset);
  };
  return { image: image!, other: other!, filtered: filtered!, mask, antiDitheredFrom8Bit, spatialMask: new WasmSpatialMask(kernels, ring, columns), modeFilter: new WasmModeFilter(kernels, lines), cValues: new WasmCValues(kernels, list) };
}

/**
 * libvmaf's cambi on the CPU with the WebAssembly SIMD kernels (ADR 0040): CambiCpu with its
 * 8-bit preprocessing, spatial mask, mode filters and c-values computed by the kernels; the same doubles as the TypeScript reference.
 */
export class CambiWasm extends CambiCpu {
  constructor(options: CambiOptions, module: WebAssembly.Module) {
    super(options, (plan) => wasmWorkspace(module, plan));
  }
}
