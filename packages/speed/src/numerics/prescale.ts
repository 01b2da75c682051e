/**
 * speed_prescale: vif_scale_frame_s's resampling (nearest, bilinear, bicubic, Lanczos-4).
 * Every method's source samples and weights depend on the output column alone (and the
 * row alone), so each is a pair of axis tables; a scaled sample is the float sum, rows
 * outer and columns inner, of source * (wx * wy), divided by the sum of the weights for
 * Lanczos. The CPU and the GPU apply the same tables.
 */
import { bicubicKernel, lanczos4Kernel, resampleMirror as mirror, resampleSourcePosition as sourcePosition } from "@vq/core";
import type { FloatImage } from "./float-image.ts";
import type { PlaneSize } from "./speed-geometry.ts";
import { PRESCALE_METHODS } from "../catalogue.ts";

const f32 = Math.fround;

export { PRESCALE_METHODS };
export type PrescaleMethod = (typeof PRESCALE_METHODS)[number];

/** One axis of a resampling: per output coordinate, `taps` mirrored source indices and float weights. */
export interface ResampleAxis {
  readonly taps: number;
  readonly index: Int32Array;
  readonly weight: Float32Array;
}

export interface Resampling {
  readonly x: ResampleAxis;
  readonly y: ResampleAxis;
  /** Lanczos-4 divides by the float sum of the weights. */
  readonly normalise: boolean;
}

function axis(method: PrescaleMethod, src: number, dst: number): ResampleAxis {
  const ratio = f32(src / dst);
  const taps = method === "nearest" ? 1 : method === "bilinear" ? 2 : method === "bicubic" ? 4 : 9;
  const index = new Int32Array(dst * taps);
  const weight = new Float32Array(dst * taps);
  for (let o = 0; o < dst; o++) {
    const at = o * taps;
    if (method === "nearest") {
      index[at] = Math.trunc(f32(o * ratio));
      weight[at] = 1;
      continue;
    }
    const p = sourcePosition(o, ratio);
    if (method === "bilinear") {
      const p1 = mirror(Math.floor(p), src - 1);
      const d = f32(p - p1);
      index[at] = p1;
      index[at + 1] = mirror(Math.ceil(p), src - 1);
      weight[at] = f32(1 - d);
      weight[at + 1] = d;
      continue;
    }
    const p0 = Math.floor(p);
    const d = f32(p - p0);
    const half = method === "bicubic" ? 1 : 4;
    for (let k = 0; k < taps; k++) {
      const offset = k - half;
      index[at + k] = mirror(p0 + offset, src - 1);
      weight[at + k] = method === "bicubic" ? bicubicKernel(f32(offset - d)) : lanczos4Kernel(f32(offset - d), 4);
    }
  }
  return { taps, index, weight };
}

export function resampling(method: PrescaleMethod, src: PlaneSize, dst: PlaneSize): Resampling {
  return { x: axis(method, src.width, dst.width), y: axis(method, src.height, dst.height), normalise: method === "lanczos4" };
}

/** vif_scale_frame_s into dst (whose size the tables were built for). */
export function resample(r: Resampling, src: FloatImage, dst: FloatImage): void {
  const { x, y } = r;
  const s = src.data;
  for (let oy = 0; oy < dst.height; oy++) {
    for (let ox = 0; ox < dst.width; ox++) {
      let value = 0;
      let weightSum = 0;
      for (let j = 0; j < y.taps; j++) {
        const row = y.index[oy * y.taps + j]! * src.width;
        const wy = y.weight[oy * y.taps + j]!;
        for (let i = 0; i < x.taps; i++) {
          const weight = f32(x.weight[ox * x.taps + i]! * wy);
          weightSum = f32(weightSum + weight);
          value = f32(value + f32(s[row + x.index[ox * x.taps + i]!]! * weight));
        }
      }
      dst.data[oy * dst.width + ox] = r.normalise ? f32(value / weightSum) : value;
    }
  }
}
