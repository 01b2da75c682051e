import type { PictureFormat, PlaneLayout } from "@vq/core";

/**
 * The plane table every frame kernel reads (shaders/common/frame.wgsl's `Planes`):
 * per plane its byte offset, stride in samples, width and height; then bytes per sample.
 */
export function planeUniforms(format: PictureFormat, planes: readonly PlaneLayout[]): Uint32Array<ArrayBuffer> {
  const u = new Uint32Array(16);
  planes.forEach((p, i) => {
    u.set([p.offset, p.stride, p.width, p.height], i * 4);
  });
  u[12] = format.bitDepth > 8 ? 2 : 1;
  u[13] = planes.length;
  return u;
}
