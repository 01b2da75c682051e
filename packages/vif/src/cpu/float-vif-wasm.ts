import { copyPlaneIntoKernels, KernelMemoryLayout, kernelsModule, reserveMemory, type Plane } from "@vq/core";
import { floatVifOptions, type FloatVifOptions } from "../float-vif-definition.ts";
import { LOG2_POLY } from "../numerics/float-log2.ts";
import { FloatVifExtractor, type FloatVifGeometry, type FloatVifPasses } from "./float-vif-cpu.ts";
import { FLOAT_VIF_EPS, sigmaMaxInv } from "./float-vif-statistic.ts";
import { convertLuma, FloatVifWorkspace, type FloatScalePlanes } from "./float-vif-workspace.ts";
import { FLOAT_VIF_KERNELS_WASM } from "./wasm/float-vif-kernels.wasm.ts";

/** The kernels' exports (assembly/float-vif-kernels.ts); pointers are byte addresses in `memory`. */
interface FloatVifKernels {
  readonly memory: WebAssembly.Memory;
  heapBase(): number;
  sumNum(): number;
  sumDen(): number;
  lumaToFloat(src: number, narrow: number, count: number, dst: number, scaler: number): void;
  statisticScale(
    ref: number, dis: number, stride: number, width: number, height: number, filter: number, taps: number,
    rows: number, rowStep: number, eps: number, nsq: number, gainLimit: number, sigmaMaxInv: number, poly: number,
  ): void;
  decimate(fromRef: number, fromDis: number, stride: number, width: number, height: number, filter: number, taps: number, toRef: number, toDis: number, rowA: number, rowB: number): void;
}

/** The compiled kernels for this thread, or undefined where the TypeScript reference runs (core's kernelsModule). */
export function floatVifKernelsModule(): WebAssembly.Module | undefined {
  return kernelsModule("float_vif", FLOAT_VIF_KERNELS_WASM);
}

/** Floats a four-column step reads or writes past a row's end (decimation's gathering loads: 7). */
const SLACK_FLOATS = 8;

/**
 * The kernels' passes, laid out in one module instance for one geometry: the four scale
 * planes (the workspace's, views of the kernels' memory), the filtered rows, the taps and
 * the log polynomial.
 */
function kernelPasses(module: WebAssembly.Module, geometry: FloatVifGeometry, options: FloatVifOptions): FloatVifPasses {
  const { inputWidth, inputHeight, width, height, pad, filters } = geometry;
  const kernels = new WebAssembly.Instance(module).exports as unknown as FloatVifKernels;
  const layout = new KernelMemoryLayout(kernels.heapBase(), SLACK_FLOATS * 4);
  const planeLength = FloatVifWorkspace.planeLength(width, height, pad);
  const planes = [0, 1, 2, 3].map(() => layout.take(planeLength * 4));
  // a row: `pad` floats of room, the samples, `pad` again
  const rowBytes = (width + 2 * pad + SLACK_FLOATS) * 4;
  // five filtered rows, then three of sigmas
  const rows = layout.take(8 * rowBytes);
  const decimationRows = layout.take(2 * rowBytes);
  const filterAt = filters.map((f) => layout.take(f.length * 4));
  const poly = layout.take(LOG2_POLY.length * 4);
  // a frame's luma as it comes (u8 or u16), for lumaToFloat
  const staging = layout.take(inputWidth * inputHeight * 2);
  reserveMemory(kernels.memory, layout.end);

  const buffer = kernels.memory.buffer;
  filters.forEach((f, s) => new Float32Array(buffer, filterAt[s]!, f.length).set(f));
  new Float32Array(buffer, poly, LOG2_POLY.length).set(LOG2_POLY);
  const views = planes.map((at) => new Float32Array(buffer, at, planeLength));
  let next = 0;
  const workspace = new FloatVifWorkspace(inputWidth, inputHeight, width, height, pad, () => views[next++]!);
  const { origin, stride } = workspace;
  /** Byte address of a workspace plane's sample (0, 0). */
  const at = (plane: Float32Array) => plane.byteOffset + origin * 4;
  const rowZero = (base: number) => base + pad * 4;

  const gainLimit = Math.fround(options.vif_enhn_gain_limit);
  const maxInv = sigmaMaxInv(options.vif_sigma_nsq);
  return {
    workspace,
    convert(plane: Plane, bitDepth: number, target: Float32Array, o: number, s: number): void {
      // the kernels convert into their own planes; a prescaled run's input planes are not theirs
      if (target.buffer !== buffer || s !== plane.width) return convertLuma(plane, bitDepth, target, o, s);
      const narrow = bitDepth === 8;
      copyPlaneIntoKernels(buffer, plane, staging, plane.width, narrow);
      kernels.lumaToFloat(staging, narrow ? 1 : 0, plane.width * plane.height, target.byteOffset + o * 4, 2 ** (bitDepth - 8));
    },
    decimate(from: FloatScalePlanes, to: FloatScalePlanes, w: number, h: number, scale: number): void {
      kernels.decimate(at(from.ref), at(from.dis), stride, w, h, filterAt[scale]!, filters[scale]!.length, at(to.ref), at(to.dis), rowZero(decimationRows), rowZero(decimationRows + rowBytes));
    },
    statistic(p: FloatScalePlanes, w: number, h: number, scale: number, out: Float64Array): void {
      const taps = filters[scale]!.length;
      kernels.statisticScale(at(p.ref), at(p.dis), stride, w, h, filterAt[scale]!, taps, rowZero(rows), rowBytes, FLOAT_VIF_EPS, options.vif_sigma_nsq, gainLimit, maxInv, poly);
      out[2 * scale] = kernels.sumNum();
      out[2 * scale + 1] = kernels.sumDen();
    },
  };
}

/** libvmaf's `float_vif` on WebAssembly SIMD kernels (ADR 0040): the same floats as FloatVifCpu, the TypeScript reference. */
export class FloatVifWasm extends FloatVifExtractor {
  constructor(options: FloatVifOptions, module: WebAssembly.Module) {
    super(options, (geometry, o) => kernelPasses(module, geometry, o));
  }
}

export function createFloatVifWasm(module: WebAssembly.Module, options: Partial<FloatVifOptions> = {}): FloatVifWasm {
  return new FloatVifWasm(floatVifOptions.resolve(options), module);
}
