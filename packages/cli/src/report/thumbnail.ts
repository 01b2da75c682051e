import type { Picture, Plane } from "@vq/core";

/** Thumbnails' width in pixels (half a worst-frames table row each). */
export const THUMBNAIL_WIDTH = 224;

export interface RgbImage {
  width: number;
  height: number;
  /** width × height × 3 bytes, rows top to bottom. */
  rgb: Uint8Array;
}

/** The mean of a plane's samples over [x0, x1) × [y0, y1) (at least one sample). */
function boxMean(plane: Plane, x0: number, x1: number, y0: number, y1: number): number {
  const xa = Math.min(Math.floor(x0), plane.width - 1);
  const ya = Math.min(Math.floor(y0), plane.height - 1);
  const xb = Math.max(xa + 1, Math.min(Math.ceil(x1), plane.width));
  const yb = Math.max(ya + 1, Math.min(Math.ceil(y1), plane.height));
  let sum = 0;
  for (let y = ya; y < yb; y++) for (let x = xa; x < xb; x++) sum += plane.data[y * plane.stride + x]!;
  return sum / ((xb - xa) * (yb - ya));
}

const clampByte = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : Math.round(v));

/**
 * A picture shrunk to at most `maxWidth` pixels wide (aspect kept; never enlarged), each
 * output pixel the box mean of the luma and chroma samples it covers, turned to RGB with
 * BT.601 limited-range coefficients (ffmpeg's default for SD/HD YUV; close enough for a
 * thumbnail of any source). Samples above 8 bits are scaled to 8.
 */
export function thumbnailRgb(picture: Picture, maxWidth: number): RgbImage {
  const width = Math.max(1, Math.min(maxWidth, picture.width));
  const height = Math.max(1, Math.round((picture.height * width) / picture.width));
  const [luma, cb, cr] = picture.planes as [Plane, Plane | undefined, Plane | undefined];
  const toEight = 2 ** (picture.bitDepth - 8);
  const sx = picture.width / width;
  const sy = picture.height / height;
  const rgb = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const Y = boxMean(luma, x * sx, (x + 1) * sx, y * sy, (y + 1) * sy) / toEight;
      let U = 128;
      let V = 128;
      if (cb && cr && cb.width > 0) {
        // The chroma planes cover the same picture at their own size (4:2:0 halves both axes).
        const cx = cb.width / picture.width;
        const cy = cb.height / picture.height;
        U = boxMean(cb, x * sx * cx, (x + 1) * sx * cx, y * sy * cy, (y + 1) * sy * cy) / toEight;
        V = boxMean(cr, x * sx * cx, (x + 1) * sx * cx, y * sy * cy, (y + 1) * sy * cy) / toEight;
      }
      const l = 1.164 * (Y - 16);
      const at = (y * width + x) * 3;
      rgb[at] = clampByte(l + 1.596 * (V - 128));
      rgb[at + 1] = clampByte(l - 0.392 * (U - 128) - 0.813 * (V - 128));
      rgb[at + 2] = clampByte(l + 2.017 * (U - 128));
    }
  }
  return { width, height, rgb };
}
