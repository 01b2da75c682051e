import type { Plane } from "@vq/core";
import { VIF_FILTER_HALF, VIF_SCALES } from "../numerics/vif-filters.ts";
import { mirrorRows } from "../numerics/mirror-pad.ts";

/**
 * One picture of the scale pyramid: reference and distorted luma, width x height, with
 * `pad` mirrored rows above and below (as far as this scale's filter reaches). Samples
 * are integers below 2^16 kept in doubles: the filters then run on the floating-point
 * units, which JavaScriptCore keeps busier than its one integer multiplier, and every
 * sum stays an exact integer (README: "How exactness is kept").
 */
export class ScalePlanes {
  readonly stride: number;
  /** Index of row 0, sample 0. */
  readonly origin: number;
  readonly ref: Float64Array;
  readonly dis: Float64Array;

  constructor(readonly width: number, readonly height: number, readonly pad: number) {
    this.stride = width;
    this.origin = pad * width;
    const length = (height + 2 * pad) * width;
    this.ref = new Float64Array(length);
    this.dis = new Float64Array(length);
  }

  /** Writes the mirrored rows above and below from the picture's rows. */
  mirror(): void {
    mirrorRows(this.ref, this.origin, this.stride, this.width, this.height, this.pad);
    mirrorRows(this.dis, this.origin, this.stride, this.width, this.height, this.pad);
  }
}

/**
 * The buffers vif works in, allocated once per format: one plane pair per scale, each
 * half the size of the one before (libvmaf's decimation rounds down).
 */
export class VifWorkspace {
  readonly scales: readonly ScalePlanes[];

  constructor(readonly width: number, readonly height: number) {
    const scales: ScalePlanes[] = [];
    for (let s = 0, w = width, h = height; s < VIF_SCALES; s++, w >>= 1, h >>= 1) scales.push(new ScalePlanes(w, h, VIF_FILTER_HALF[s]!));
    this.scales = scales;
  }

  /** Copies the luma planes into scale 0 and mirrors its borders. */
  load(ref: Plane, dis: Plane): ScalePlanes {
    const target = this.scales[0]!;
    copyPlane(ref, target.ref, target.origin, target.stride);
    copyPlane(dis, target.dis, target.origin, target.stride);
    target.mirror();
    return target;
  }
}

function copyPlane(plane: Plane, target: Float64Array, origin: number, stride: number): void {
  const { data, width, height } = plane;
  for (let y = 0; y < height; y++) {
    const from = y * plane.stride;
    const to = origin + y * stride;
    for (let x = 0; x < width; x++) target[to + x] = data[from + x]!;
  }
}
