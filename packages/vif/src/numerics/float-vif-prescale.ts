/**
 * float_vif's optional prescaling of the float luma (vif_scale_frame_s): nearest,
 * bilinear, bicubic or Lanczos-4 resampling, in libvmaf's float/double steps. At the
 * default prescale of 1 the picture passes unchanged.
 */

import { bicubicKernel, lanczos4Kernel, resampleMirror as mirror, resampleSourcePosition as sourcePosition } from "@vq/core";
import { PRESCALE_METHODS } from "../catalogue.ts";

const f32 = Math.fround;

export { PRESCALE_METHODS };
export type PrescaleMethod = (typeof PRESCALE_METHODS)[number];

/** VIF_BILINEAR_MAX_WIDTH: libvmaf's bilinear tables hold at most this many columns. */
export const BILINEAR_MAX_WIDTH = 7680;

/** (int)(w * prescale + 0.5), as float_vif's init sizes its scaled buffers. */
export function prescaledSize(size: { width: number; height: number }, prescale: number): { width: number; height: number } {
  return { width: Math.trunc(size.width * prescale + 0.5), height: Math.trunc(size.height * prescale + 0.5) };
}

/** A plane of floats, row y at y * stride. */
export interface FloatPlane {
  readonly data: Float32Array;
  readonly width: number;
  readonly height: number;
  readonly stride: number;
  /** Index of row 0, sample 0. */
  readonly origin: number;
}

/** Resamples src into dst; the bilinear column tables depend only on the sizes, so they are built once. */
export class FloatVifPrescaler {
  private readonly x1: Int32Array;
  private readonly x2: Int32Array;
  private readonly dx: Float64Array;

  constructor(readonly method: PrescaleMethod, srcWidth: number, dstWidth: number) {
    const columns = method === "bilinear" ? dstWidth : 0;
    this.x1 = new Int32Array(columns);
    this.x2 = new Int32Array(columns);
    this.dx = new Float64Array(columns);
    if (columns) {
      const ratioX = f32(srcWidth / dstWidth);
      for (let x = 0; x < dstWidth; x++) {
        const xx = sourcePosition(x, ratioX);
        this.x1[x] = mirror(Math.floor(xx), srcWidth - 1);
        this.x2[x] = mirror(Math.ceil(xx), srcWidth - 1);
        this.dx[x] = f32(xx - this.x1[x]!);
      }
    }
  }

  run(src: FloatPlane, dst: FloatPlane): void {
    if (src.width === dst.width && src.height === dst.height) {
      for (let y = 0; y < src.height; y++) {
        const from = src.origin + y * src.stride;
        dst.data.set(src.data.subarray(from, from + src.width), dst.origin + y * dst.stride);
      }
      return;
    }
    switch (this.method) {
      case "nearest":
        return nearest(src, dst);
      case "bilinear":
        return bilinear(src, dst, this.x1, this.x2, this.dx);
      case "bicubic":
        return interpolate(src, dst, bicubicAt);
      case "lanczos4":
        return interpolate(src, dst, lanczos4At);
    }
  }
}

function nearest(src: FloatPlane, dst: FloatPlane): void {
  const ratioX = f32(src.width / dst.width);
  const ratioY = f32(src.height / dst.height);
  for (let y = 0; y < dst.height; y++) {
    const sy = Math.trunc(f32(y * ratioY));
    for (let x = 0; x < dst.width; x++) {
      const sx = Math.trunc(f32(x * ratioX));
      dst.data[dst.origin + y * dst.stride + x] = src.data[src.origin + sy * src.stride + sx]!;
    }
  }
}

function bilinear(src: FloatPlane, dst: FloatPlane, x1: Int32Array, x2: Int32Array, dxs: Float64Array): void {
  const ratioY = f32(src.height / dst.height);
  for (let y = 0; y < dst.height; y++) {
    const yy = sourcePosition(y, ratioY);
    const y1 = mirror(Math.floor(yy), src.height - 1);
    const y2 = mirror(Math.ceil(yy), src.height - 1);
    const dy = f32(yy - y1);
    const r1 = src.origin + y1 * src.stride;
    const r2 = src.origin + y2 * src.stride;
    const ody = f32(1 - dy);
    for (let x = 0; x < dst.width; x++) {
      const dx = dxs[x]!;
      const odx = f32(1 - dx);
      const s = src.data;
      let v = f32(f32(ody * odx) * s[r1 + x1[x]!]!);
      v = f32(v + f32(f32(ody * dx) * s[r1 + x2[x]!]!));
      v = f32(v + f32(f32(dy * odx) * s[r2 + x1[x]!]!));
      v = f32(v + f32(f32(dy * dx) * s[r2 + x2[x]!]!));
      dst.data[dst.origin + y * dst.stride + x] = v;
    }
  }
}

function interpolate(src: FloatPlane, dst: FloatPlane, at: (src: FloatPlane, x: number, y: number) => number): void {
  const ratioX = f32(src.width / dst.width);
  const ratioY = f32(src.height / dst.height);
  for (let y = 0; y < dst.height; y++) {
    const yy = sourcePosition(y, ratioY);
    for (let x = 0; x < dst.width; x++) dst.data[dst.origin + y * dst.stride + x] = at(src, sourcePosition(x, ratioX), yy);
  }
}

const weightsX = new Float64Array(9);
const weightsY = new Float64Array(9);

function bicubicAt(src: FloatPlane, x: number, y: number): number {
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  const dx = f32(x - x0);
  const dy = f32(y - y0);
  for (let i = -1; i <= 2; i++) {
    weightsX[i + 1] = bicubicKernel(f32(i - dx));
    weightsY[i + 1] = bicubicKernel(f32(i - dy));
  }
  let value = 0;
  for (let j = -1; j <= 2; j++) {
    for (let i = -1; i <= 2; i++) {
      const xi = mirror(x0 + i, src.width - 1);
      const yi = mirror(y0 + j, src.height - 1);
      const weight = f32(weightsX[i + 1]! * weightsY[j + 1]!);
      value = f32(value + f32(src.data[src.origin + yi * src.stride + xi]! * weight));
    }
  }
  return value;
}

function lanczos4At(src: FloatPlane, x: number, y: number): number {
  const a = 4;
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  const dx = f32(x - x0);
  const dy = f32(y - y0);
  for (let i = -a; i <= a; i++) {
    weightsX[i + a] = lanczos4Kernel(f32(i - dx), a);
    weightsY[i + a] = lanczos4Kernel(f32(i - dy), a);
  }
  let value = 0;
  let weightSum = 0;
  for (let iy = -a; iy <= a; iy++) {
    for (let ix = -a; ix <= a; ix++) {
      const weight = f32(weightsX[ix + a]! * weightsY[iy + a]!);
      weightSum = f32(weightSum + weight);
      const xi = mirror(x0 + ix, src.width - 1);
      const yi = mirror(y0 + iy, src.height - 1);
      value = f32(value + f32(src.data[src.origin + yi * src.stride + xi]! * weight));
    }
  }
  return f32(value / weightSum);
}
