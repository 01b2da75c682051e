import { copyPlaneIntoKernels, KernelMemoryLayout, kernelsModule, reserveMemory, type Plane } from "@vq/core";
import { blurFloat } from "./float-blur.ts";
import { floatMotionOptions, type FloatMotionOptions } from "./float-definition.ts";
import { FloatMotionExtractor, type FloatMotionPlane, type FloatMotionPlanes } from "./float-motion-cpu.ts";
import { floatSadWithScale1, halfSize } from "./float-sad.ts";
import { giveBackInstance, takeInstance } from "./spare-instances.ts";
import { FLOAT_MOTION_KERNELS_WASM } from "./wasm/float-motion-kernels.wasm.ts";

/** The kernels' exports (assembly/float-motion-kernels.ts); pointers are byte addresses in `memory`. */
interface FloatMotionKernels {
  readonly memory: WebAssembly.Memory;
  heapBase(): number;
  toFloat(src: number, narrow: number, count: number, dst: number, scale: number): void;
  blur5(src: number, dst: number, tmp: number, width: number, height: number, filter: number): void;
  sadSum(a: number, b: number, width: number, height: number, stride: number): number;
}

/** The compiled kernels for this thread, or undefined where the TypeScript reference runs (core's kernelsModule). */
export function floatMotionKernelsModule(): WebAssembly.Module | undefined {
  return kernelsModule("float_motion", FLOAT_MOTION_KERNELS_WASM);
}

/** Bytes a step reads or writes past a plane's end (eight samples). */
const SLACK_BYTES = 32;

/** A float plane in the kernels' memory: its byte address and a view for the TypeScript steps. */
interface KernelPlane {
  readonly at: number;
  readonly view: Float32Array;
}

/**
 * One plane's buffers in the kernels' memory: a frame's samples as they come, as floats, the
 * blur's scratch and the blurred current and previous frames. The 5-tap blur and the SAD
 * run in the kernels; other filter lengths and motion_add_scale1's half-size SAD run the
 * reference's functions on views of the same memory.
 */
class KernelBlurredPlane implements FloatMotionPlane {
  private blurred: KernelPlane;
  private previous: KernelPlane;
  private readonly scaledA: Float32Array;
  private readonly scaledB: Float32Array;

  constructor(
    private readonly kernels: FloatMotionKernels,
    private readonly width: number,
    private readonly height: number,
    private readonly staging: number,
    private readonly samples: KernelPlane,
    private readonly tmp: KernelPlane,
    blurred: readonly [KernelPlane, KernelPlane],
    private readonly filter: Float32Array,
    private readonly filterAt: number,
    scale1: boolean,
  ) {
    [this.blurred, this.previous] = blurred;
    const half = scale1 ? halfSize(width) * halfSize(height) : 0;
    this.scaledA = new Float32Array(half);
    this.scaledB = new Float32Array(half);
  }

  push(plane: Plane, bitDepth: number): void {
    [this.previous, this.blurred] = [this.blurred, this.previous];
    const { kernels, width, height } = this;
    const narrow = bitDepth === 8;
    copyPlaneIntoKernels(kernels.memory.buffer, plane, this.staging, width, narrow);
    kernels.toFloat(this.staging, narrow ? 1 : 0, width * height, this.samples.at, 1 / 2 ** (bitDepth - 8));
    if (this.filter.length === 5) kernels.blur5(this.samples.at, this.blurred.at, this.tmp.at, width, height, this.filterAt);
    else blurFloat(this.samples.view, this.blurred.view, this.tmp.view, width, height, this.filter);
  }

  motion(scale1: boolean): number {
    const { width, height } = this;
    if (scale1) return floatSadWithScale1(this.previous.view, this.blurred.view, width, height, this.scaledA, this.scaledB);
    // floatSad: the float sum over the float sample count
    return Math.fround(this.kernels.sadSum(this.previous.at, this.blurred.at, width, height, width) / Math.fround(width * height));
  }
}

/** The kernels' planes, laid out in one module instance (a closed extractor's, where one is spare). */
function kernelPlanes(module: WebAssembly.Module): FloatMotionPlanes {
  return (sizes, scale1, filter) => {
    const kernels = takeInstance<FloatMotionKernels>(module);
    const layout = new KernelMemoryLayout(kernels.heapBase(), SLACK_BYTES);
    const filterAt = layout.take(filter.length * 4);
    const regions = sizes.map(({ width, height }) => ({
      width,
      height,
      staging: layout.take(width * height * 2),
      floats: [0, 1, 2, 3].map(() => layout.take(width * height * 4)),
    }));
    reserveMemory(kernels.memory, layout.end);
    const buffer = kernels.memory.buffer;
    new Float32Array(buffer, filterAt, filter.length).set(filter);
    const planes = regions.map(({ width, height, staging, floats }) => {
      const [samples, tmp, a, b] = floats.map((at) => ({ at, view: new Float32Array(buffer, at, width * height) })) as [KernelPlane, KernelPlane, KernelPlane, KernelPlane];
      // the first frame's "previous" (a run that starts past frame 0 scores its first frame
      // against it): zeros, as the reference's new arrays, whatever a spare instance held
      a.view.fill(0);
      return new KernelBlurredPlane(kernels, width, height, staging, samples, tmp, [a, b], filter, filterAt, scale1);
    });
    return { planes, release: () => giveBackInstance(module, kernels) };
  };
}

/** libvmaf's `float_motion` on WebAssembly SIMD kernels (ADR 0040): the same floats as FloatMotionCpu, the TypeScript reference. */
export class FloatMotionWasm extends FloatMotionExtractor {
  constructor(options: FloatMotionOptions, module: WebAssembly.Module) {
    super(options, kernelPlanes(module));
  }
}

export function createFloatMotionWasm(module: WebAssembly.Module, options: Partial<FloatMotionOptions> = {}): FloatMotionWasm {
  return new FloatMotionWasm(floatMotionOptions.resolve(options), module);
}
