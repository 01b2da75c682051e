import type { Plane } from "@vq/core";
import type { FloatPlane } from "../numerics/float-vif-prescale.ts";

/** One picture of the float scale pyramid: reference and distorted luma with mirrored rows above and below. */
export interface FloatScalePlanes {
  readonly ref: Float32Array;
  readonly dis: Float32Array;
}

/**
 * float_vif's buffers, allocated once per format: the converted input (only when it is
 * prescaled to another size) and two plane pairs the scales alternate between, padded
 * by the widest filter radius, all rows at the scaled width's stride.
 */
export class FloatVifWorkspace {
  readonly stride: number;
  readonly origin: number;
  readonly pairs: readonly [FloatScalePlanes, FloatScalePlanes];
  /** The unscaled float input, when prescaling changes the size. */
  readonly input?: FloatScalePlanes;

  /** The floats of one scale plane: `height` rows and `pad` mirrored ones above and below, `width` apart. */
  static planeLength(width: number, height: number, pad: number): number {
    return (height + 2 * pad) * width;
  }

  /** `plane` gives the four scale planes (the WebAssembly kernels': views of their memory). */
  constructor(
    readonly inputWidth: number,
    readonly inputHeight: number,
    readonly width: number,
    readonly height: number,
    readonly pad: number,
    plane: (length: number) => Float32Array = (length) => new Float32Array(length),
  ) {
    this.stride = width;
    this.origin = pad * width;
    const length = FloatVifWorkspace.planeLength(width, height, pad);
    const pair = (): FloatScalePlanes => ({ ref: plane(length), dis: plane(length) });
    this.pairs = [pair(), pair()];
    if (inputWidth !== width || inputHeight !== height) {
      this.input = { ref: new Float32Array(inputWidth * inputHeight), dis: new Float32Array(inputWidth * inputHeight) };
    }
  }

  /** Where the converted luma goes: the input planes, or pair 0 when no resampling follows. */
  inputPlanes(): { planes: FloatScalePlanes; origin: number; stride: number } {
    return this.input ? { planes: this.input, origin: 0, stride: this.inputWidth } : { planes: this.pairs[0], origin: this.origin, stride: this.stride };
  }

  inputPlane(which: "ref" | "dis"): FloatPlane {
    const { planes, origin, stride } = this.inputPlanes();
    return { data: planes[which], width: this.inputWidth, height: this.inputHeight, stride, origin };
  }

  scaledPlane(which: "ref" | "dis"): FloatPlane {
    return { data: this.pairs[0][which], width: this.width, height: this.height, stride: this.stride, origin: this.origin };
  }
}

/**
 * libvmaf's picture_copy with offset -128: 8-bit samples as floats, deeper ones divided
 * (in float) by 4, 16 or 256 to the 8-bit range first.
 */
export function convertLuma(plane: Plane, bitDepth: number, target: Float32Array, origin: number, stride: number): void {
  const { data, width, height } = plane;
  const scaler = bitDepth === 8 ? 1 : 2 ** (bitDepth - 8);
  for (let y = 0; y < height; y++) {
    const from = y * plane.stride;
    const to = origin + y * stride;
    // a power-of-two division is exact, so one rounding (the subtraction's) remains
    for (let x = 0; x < width; x++) target[to + x] = data[from + x]! / scaler - 128;
  }
}
