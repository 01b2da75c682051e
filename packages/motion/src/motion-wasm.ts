import { copyPlaneIntoKernels, KernelMemoryLayout, kernelsModule, reserveMemory, type FeatureCollector, type FeatureExtractor, type PictureFormat, type PicturePair } from "@vq/core";
import { motionDefinition, motionFeatureNames, motionFrameDistance, type MotionFeatureNames, type MotionOptions } from "./definition.ts";
import { sadScore } from "./motion-cpu.ts";
import { DEEP_COLUMN_BASE, motionSad, NARROW_SAMPLE_LIMIT } from "./motion-sad.ts";
import { Motion2And3Writer } from "./motion-temporal.ts";
import { giveBackInstance, takeInstance } from "./spare-instances.ts";
import { MOTION_KERNELS_WASM } from "./wasm/motion-kernels.wasm.ts";

/** The kernels' exports (assembly/motion-kernels.ts); pointers are byte addresses in `memory`. */
interface MotionKernels {
  readonly memory: WebAssembly.Memory;
  heapBase(): number;
  blurColumns(luma: number, stride: number, width: number, height: number, base: number, out: number): number;
  blurColumns8(luma: number, stride: number, width: number, height: number, base: number, out: number): number;
  sadNarrow(prev: number, cur: number, width: number, height: number, shift: number, row: number): number;
}

/** The compiled kernels for this thread, or undefined where the TypeScript reference runs (core's kernelsModule). */
export function motionKernelsModule(): WebAssembly.Module | undefined {
  return kernelsModule("motion", MOTION_KERNELS_WASM);
}

interface Columns {
  readonly at: number;
  /** The same plane as a view, for the TypeScript SAD of pictures with samples of 2^15 and above. */
  readonly view: Int32Array;
  narrow: boolean;
}

interface WasmState {
  readonly kernels: MotionKernels;
  readonly luma: number;
  readonly row: number;
  readonly entries: readonly Columns[];
  frames: number;
}

/**
 * libvmaf's integer `motion` on WebAssembly SIMD kernels (ADR 0040): MotionCpu's numbers,
 * with the blurred columns of the last frames kept in the module's memory.
 */
export class MotionWasm implements FeatureExtractor<PicturePair> {
  readonly definition = motionDefinition;
  readonly names: MotionFeatureNames;
  private readonly distance: 1 | 2;
  private state?: WasmState;
  private bitDepth = 8;
  private readonly motion2And3: Motion2And3Writer;

  constructor(readonly options: MotionOptions, private readonly module: WebAssembly.Module) {
    this.names = motionFeatureNames(options);
    this.distance = motionFrameDistance(options);
    this.motion2And3 = new Motion2And3Writer(this.names, options);
  }

  init(format: PictureFormat): void {
    motionDefinition.checkFormat?.(this.options, format);
    this.bitDepth = format.bitDepth;
    if (this.options.motion_force_zero) return; // every score is 0: nothing to keep
    if (this.state) giveBackInstance(this.module, this.state.kernels);
    const kernels = takeInstance<MotionKernels>(this.module);
    const { width, height } = format;
    const layout = new KernelMemoryLayout(kernels.heapBase());
    const luma = layout.take((width * height + 16) * 2);
    const row = layout.take(16 + (width + 16) * 4) + 16; // two mirrored samples (and alignment) before sample 0
    const starts = Array.from({ length: this.distance + 1 }, () => layout.take((width * height + 16) * 4));
    reserveMemory(kernels.memory, layout.end);
    const entries = starts.map((at) => ({ at, view: new Int32Array(kernels.memory.buffer, at, width * height), narrow: true }));
    this.state = { kernels, luma, row, entries, frames: 0 };
  }

  extract(frame: PicturePair, index: number, collector: FeatureCollector): void {
    let score = 0;
    const state = this.state;
    if (state) {
      const { kernels, entries } = state;
      const plane = frame.ref.planes[0]!;
      const { width, height } = plane;
      const narrow = this.bitDepth === 8;
      copyPlaneIntoKernels(kernels.memory.buffer, plane, state.luma, width, narrow);
      const cur = entries[state.frames % entries.length]!;
      const samples = narrow
        ? kernels.blurColumns8(state.luma, width, width, height, 0, cur.at)
        : kernels.blurColumns(state.luma, width, width, height, this.bitDepth > 8 ? DEEP_COLUMN_BASE : 0, cur.at);
      cur.narrow = samples >>> 0 < NARROW_SAMPLE_LIMIT;
      // started after frame 0 (a warm-up, warmUpFrames): no earlier frame yet, a score that is dropped
      if (index >= this.distance && state.frames >= this.distance) {
        const prev = entries[(state.frames - this.distance) % entries.length]!;
        const sad =
          prev.narrow && cur.narrow
            ? kernels.sadNarrow(prev.at, cur.at, width, height, this.bitDepth, state.row)
            : motionSad(prev.view, cur.view, width, height, this.bitDepth, false);
        score = sadScore(sad, width, height, this.options);
      }
      state.frames++;
    } else if (!this.options.motion_force_zero) {
      throw new Error("motion: extract before init");
    }
    this.motion2And3.writeScore(collector, index, score);
  }

  flush(collector: FeatureCollector): void {
    this.motion2And3.finish(collector);
  }

  close(): void {
    if (this.state) giveBackInstance(this.module, this.state.kernels);
    this.state = undefined;
  }
}
