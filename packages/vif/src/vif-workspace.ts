import type { Plane } from "@vq/core";
import { VIF_MAX_HALF } from "./vif-filters.ts";
import { mirrorRows } from "./mirror-pad.ts";

/** One picture of the scale pyramid: reference and distorted luma with mirrored borders. */
export interface ScalePlanes {
  readonly ref: Uint16Array;
  readonly dis: Uint16Array;
}

/**
 * The buffers vif works in, allocated once per format: two plane pairs the scales
 * alternate between (scale s+1 is decimated from scale s into the other pair), each with
 * VIF_MAX_HALF mirrored rows above and below; every scale keeps the full-size stride.
 */
export class VifWorkspace {
  readonly stride: number;
  /** Index of row 0, sample 0 in every plane. */
  readonly origin: number;
  readonly pairs: readonly [ScalePlanes, ScalePlanes];

  constructor(readonly width: number, readonly height: number) {
    this.stride = width;
    this.origin = VIF_MAX_HALF * width;
    const length = (height + 2 * VIF_MAX_HALF) * width;
    const pair = (): ScalePlanes => ({ ref: new Uint16Array(length), dis: new Uint16Array(length) });
    this.pairs = [pair(), pair()];
  }

  /** Copies the luma planes into pair 0 and mirrors the borders scale 0's filter reads. */
  load(ref: Plane, dis: Plane, half: number): ScalePlanes {
    const target = this.pairs[0];
    copyPlane(ref, target.ref, this.origin, this.stride);
    copyPlane(dis, target.dis, this.origin, this.stride);
    mirrorRows(target.ref, this.origin, this.stride, this.width, this.height, half);
    mirrorRows(target.dis, this.origin, this.stride, this.width, this.height, half);
    return target;
  }
}

function copyPlane(plane: Plane, target: Uint16Array, origin: number, stride: number): void {
  const { data, width, height } = plane;
  for (let y = 0; y < height; y++) {
    const from = y * plane.stride;
    target.set(data.subarray(from, from + width), origin + y * stride);
  }
}
