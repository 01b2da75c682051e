import { chromaSize, type FeatureCollector, type FeatureExtractor, type PictureFormat, type PicturePair, type Plane } from "@vq/core";
import { floatMotionDefinition, floatMotionFeatureNames, floatMotionOptions, type FloatMotionFeatureNames, type FloatMotionOptions } from "./float-definition.ts";
import { blurFloat, copyToFloat, floatMotionFilter } from "./float-blur.ts";
import { clipMotion, motionBlend } from "./motion-blend.ts";
import { floatSad, floatSadWithScale1, halfSize } from "./float-sad.ts";

/**
 * One plane's float_motion work per frame, on the TypeScript reference (FloatMotionCpu) or
 * the WebAssembly SIMD kernels (FloatMotionWasm): the same floats either way.
 */
export interface FloatMotionPlane {
  /** Converts and blurs `plane` as the current frame; the former current one becomes the previous. */
  push(plane: Plane, bitDepth: number): void;
  /** compute_motion between the previous and the current blurred frame, as a double. */
  motion(scale1: boolean): number;
}

/** A run's planes, one per size (luma, then chroma with motion_add_uv), and what frees them. */
export type FloatMotionPlanes = (sizes: readonly { width: number; height: number }[], scale1: boolean, filter: Float32Array) => { planes: FloatMotionPlane[]; release?(): void };

/** One plane's float buffers: the converted picture, the blur's scratch, and the blurred current and previous frames. */
export class BlurredPlane implements FloatMotionPlane {
  readonly samples: Float32Array;
  readonly tmp: Float32Array;
  blurred: Float32Array;
  previous: Float32Array;
  readonly scaledA: Float32Array;
  readonly scaledB: Float32Array;

  constructor(
    readonly width: number,
    readonly height: number,
    scale1: boolean,
    private readonly filter: Float32Array,
  ) {
    const n = width * height;
    this.samples = new Float32Array(n);
    this.tmp = new Float32Array(n);
    this.blurred = new Float32Array(n);
    this.previous = new Float32Array(n);
    const half = scale1 ? halfSize(width) * halfSize(height) : 0;
    this.scaledA = new Float32Array(half);
    this.scaledB = new Float32Array(half);
  }

  push(plane: Plane, bitDepth: number): void {
    [this.previous, this.blurred] = [this.blurred, this.previous];
    copyToFloat(plane, bitDepth, this.samples);
    blurFloat(this.samples, this.blurred, this.tmp, this.width, this.height, this.filter);
  }

  motion(scale1: boolean): number {
    return scale1
      ? floatSadWithScale1(this.previous, this.blurred, this.width, this.height, this.scaledA, this.scaledB)
      : floatSad(this.previous, this.blurred, this.width, this.height, this.width);
  }
}

/** The TypeScript reference's planes. */
const referencePlanes: FloatMotionPlanes = (sizes, scale1, filter) => ({ planes: sizes.map(({ width, height }) => new BlurredPlane(width, height, scale1, filter)) });

/**
 * libvmaf's `float_motion` on the CPU over a kind of planes: the reference planes blurred in
 * float, the mean absolute difference with the previous frame's. A frame's motion2 is the
 * smaller of its own score and the next frame's, so frame i-1's motion2/motion3 are written
 * at frame i and the last frame's at flush.
 */
export class FloatMotionExtractor implements FeatureExtractor<PicturePair> {
  readonly definition = floatMotionDefinition;
  readonly names: FloatMotionFeatureNames;
  private planes: FloatMotionPlane[] = [];
  private releasePlanes?: () => void;
  private readonly filter: Float32Array;
  private bitDepth = 8;
  private frames = 0;
  private lastIndex = 0;
  /** The score of the previous frame pair: libvmaf recomputes it (same SAD, operands swapped, so the same float). */
  private previousScore = 0;

  constructor(
    readonly options: FloatMotionOptions,
    private readonly makePlanes: FloatMotionPlanes,
  ) {
    this.names = floatMotionFeatureNames(options);
    this.filter = floatMotionFilter(options.motion_filter_size);
  }

  init(format: PictureFormat): void {
    floatMotionDefinition.checkFormat?.(this.options, format);
    this.bitDepth = format.bitDepth;
    this.frames = 0;
    this.lastIndex = 0;
    this.previousScore = 0;
    if (this.options.motion_force_zero) return;
    const sizes = [{ width: format.width, height: format.height }];
    if (this.options.motion_add_uv) sizes.push(chromaSize(format), chromaSize(format));
    this.releasePlanes?.();
    const made = this.makePlanes(sizes, this.options.motion_add_scale1, this.filter);
    this.planes = made.planes;
    this.releasePlanes = made.release;
  }

  extract(frame: PicturePair, index: number, collector: FeatureCollector): void {
    const o = this.options;
    const { names } = this;
    this.frames++;
    if (o.motion_force_zero) {
      collector.append(names.motion2, index, 0);
      collector.append(names.motion3, index, 0);
      if (o.debug) collector.append(names.motion, index, 0);
      return;
    }
    this.lastIndex = index;
    this.planes.forEach((p, i) => p.push(frame.ref.planes[i]!, this.bitDepth));

    if (index === 0) {
      collector.append(names.motion2, index, 0);
      if (o.debug) collector.append(names.motion, index, 0);
      return;
    }

    let score = 0;
    for (const p of this.planes) score += p.motion(o.motion_add_scale1); // luma, then u and v, summed in double
    const weighted = score * o.motion_fps_weight;
    if (o.debug) collector.append(names.motion, index, clipMotion(weighted, o.motion_max_val));
    const previous = this.previousScore;
    this.previousScore = score;
    if (index === 1) {
      collector.append(names.motion3, 0, this.motion3(weighted));
      return;
    }
    const motion2 = (previous < score ? previous : score) * o.motion_fps_weight;
    collector.append(names.motion2, index - 1, clipMotion(motion2, o.motion_max_val));
    collector.append(names.motion3, index - 1, this.motion3(motion2));
  }

  private motion3(weighted: number): number {
    const o = this.options;
    return clipMotion(motionBlend(weighted, o.motion_blend_factor, o.motion_blend_offset), o.motion_max_val);
  }

  flush(collector: FeatureCollector): void {
    // libvmaf drops its flush when forcing zero; without frames it is never initialised
    if (this.options.motion_force_zero || this.frames === 0) return;
    const index = this.lastIndex;
    if (index > 0) {
      const weighted = this.previousScore * this.options.motion_fps_weight;
      collector.append(this.names.motion2, index, clipMotion(weighted, this.options.motion_max_val));
      collector.append(this.names.motion3, index, this.motion3(weighted));
    } else {
      collector.append(this.names.motion3, 0, 0);
    }
  }

  close(): void {
    this.releasePlanes?.();
    this.releasePlanes = undefined;
    this.planes = [];
  }
}

/** libvmaf's `float_motion` on the CPU, float arithmetic emulated step by step (the specification the kernels are held to). */
export class FloatMotionCpu extends FloatMotionExtractor {
  constructor(options: FloatMotionOptions) {
    super(options, referencePlanes);
  }
}

export function createFloatMotionCpu(options: Partial<FloatMotionOptions> = {}): FloatMotionCpu {
  return new FloatMotionCpu(floatMotionOptions.resolve(options));
}
