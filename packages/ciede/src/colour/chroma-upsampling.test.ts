import { describe, expect, test } from "bun:test";
import { Picture, type PictureFormat } from "@vq/core";
import { ChromaUpsampling } from "./chroma-upsampling.ts";

/**
 * The oracle: libvmaf's own procedure, step by step. The chroma plane is copied into a
 * buffer laid out like vmaf_picture_alloc's (rows aligned to 32 samples, zero padding),
 * then scale_chroma_planes' pointer walk builds the full-size plane.
 */
function libvmafUpsampled(picture: Picture, p: 1 | 2): number[] {
  const ssHor = picture.pixelFormat !== "444";
  const ssVer = picture.pixelFormat === "420";
  const cw = ssHor ? picture.width >> 1 : picture.width;
  const ch = ssVer ? picture.height >> 1 : picture.height;
  const stride = Math.ceil(cw / 32) * 32;
  const buffer = new Array<number>(stride * ch).fill(0);
  const plane = picture.planes[p]!;
  for (let r = 0; r < ch; r++) for (let c = 0; c < cw; c++) buffer[r * stride + c] = plane.data[r * plane.stride + c]!;
  const out: number[] = [];
  let row = 0;
  for (let i = 0; i < picture.height; i++) {
    for (let j = 0; j < picture.width; j++) {
      const at = row + Math.floor(j / (ssVer ? 2 : 1));
      if (at >= buffer.length) throw new Error("libvmaf would read past its chroma buffer");
      out.push(buffer[at]!);
    }
    row += (ssHor ? i % 2 : 1) * stride;
  }
  return out;
}

function ours(picture: Picture, p: 1 | 2): number[] {
  const up = new ChromaUpsampling(picture.format);
  const plane = picture.planes[p]!;
  const offsets = up.columnOffsets(plane.stride);
  const out: number[] = [];
  for (let i = 0; i < picture.height; i++) {
    for (let j = 0; j < picture.width; j++) {
      const o = offsets[j]!;
      out.push(o < 0 ? 0 : plane.data[(i >> up.rowShift) * plane.stride + o]!);
    }
  }
  return out;
}

describe("ciede's chroma upsampling reads what libvmaf reads", () => {
  const formats: PictureFormat[] = [
    { width: 70, height: 10, bitDepth: 8, pixelFormat: "420" },
    { width: 70, height: 9, bitDepth: 8, pixelFormat: "444" },
    { width: 70, height: 10, bitDepth: 10, pixelFormat: "422" }, // chroma 35 wide in a 64-sample row: padding, then the next row
    { width: 128, height: 6, bitDepth: 8, pixelFormat: "422" }, // chroma rows exactly 64: straight into the next row
  ];
  for (const format of formats) {
    test(`${format.width}x${format.height} ${format.pixelFormat}`, () => {
      const picture = Picture.allocate(format);
      for (const plane of picture.planes) for (let k = 0; k < plane.data.length; k++) plane.data[k] = (k * 37 + 11) % 251 + 1;
      for (const p of [1, 2] as const) expect(ours(picture, p)).toEqual(libvmafUpsampled(picture, p));
    });
  }
});
