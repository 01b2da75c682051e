import { describe, expect, test } from "bun:test";
import type { Samples } from "@vq/core";
import { blurColumns, MOTION_FILTER, motionSad } from "./motion-sad.ts";

/**
 * libvmaf's scalar C pipeline (motion_score_pipeline_8/_16) transcribed literally: per
 * pixel, the difference of the two pictures blurred vertically with mirrored rows,
 * rounded, blurred horizontally, rounded, |·| summed in a uint32 per row. A slow model
 * for checking the fast kernels on inputs the golden set lacks (16 bits, odd sizes,
 * samples beyond the bit depth).
 */
function libvmafSad(prev: Samples, cur: Samples, width: number, height: number, bitDepth: number): number {
  const mirror = (i: number, n: number) => (i < 0 ? -i : i >= n ? 2 * n - i - 2 : i);
  const yRow = new Array<number>(width);
  let sad = 0;
  for (let i = 0; i < height; i++) {
    for (let j = 0; j < width; j++) {
      let acc = 0;
      for (let k = 0; k < 5; k++) {
        const r = mirror(i - 2 + k, height);
        acc += MOTION_FILTER[k]! * (prev[r * width + j]! - cur[r * width + j]!);
      }
      yRow[j] = Math.floor((acc + 2 ** (bitDepth - 1)) / 2 ** bitDepth);
    }
    let rowSad = 0;
    for (let j = 0; j < width; j++) {
      let acc = 0;
      for (let k = 0; k < 5; k++) acc += MOTION_FILTER[k]! * yRow[mirror(j - 2 + k, width)]!;
      rowSad = (rowSad + Math.abs(Math.floor((acc + 32768) / 65536))) % 2 ** 32;
    }
    sad += rowSad;
  }
  return sad;
}

/** A deterministic pseudo-random plane (xorshift), samples below `limit`. */
function randomPlane(width: number, height: number, bitDepth: number, limit: number, seed: number): Samples {
  const plane = bitDepth > 8 ? new Uint16Array(width * height) : new Uint8Array(width * height);
  let s = seed >>> 0 || 1;
  for (let i = 0; i < plane.length; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    plane[i] = (s >>> 0) % limit;
  }
  return plane;
}

/** A smoother variant: a moving ramp plus noise, so differences are small like in real video. */
function nearbyPlane(base: Samples, bitDepth: number, seed: number): Samples {
  const noise = randomPlane(base.length, 1, 16, 9, seed);
  const out = base.slice();
  const max = 2 ** bitDepth - 1;
  for (let i = 0; i < out.length; i++) out[i] = Math.min(max, Math.max(0, base[i]! + noise[i]! - 4));
  return out;
}

function ourSad(prev: Samples, cur: Samples, width: number, height: number, bitDepth: number, forceWide = false): number {
  const a = new Int32Array(width * height);
  const b = new Int32Array(width * height);
  const na = blurColumns(prev, width, width, height, bitDepth, a);
  const nb = blurColumns(cur, width, width, height, bitDepth, b);
  return motionSad(a, b, width, height, bitDepth, na && nb && !forceWide);
}

const SIZES: [number, number][] = [
  [3, 3],
  [4, 3],
  [5, 7],
  [17, 9],
  [64, 33],
  [1024, 128], // enough samples to hit rounding ties (acc ≡ 2^15 mod 2^16) in both passes
];

describe("motionSad equals libvmaf's scalar pipeline", () => {
  for (const bitDepth of [8, 9, 10, 12, 14, 16]) {
    for (const [w, h] of SIZES) {
      test(`${bitDepth}-bit ${w}x${h}`, () => {
        const prev = randomPlane(w, h, bitDepth, 2 ** bitDepth, w * 131 + h + bitDepth);
        const cur = randomPlane(w, h, bitDepth, 2 ** bitDepth, w * 7 + h * 3 + bitDepth);
        const expected = libvmafSad(prev, cur, w, h, bitDepth);
        expect(expected).toBeGreaterThan(0);
        expect(ourSad(prev, cur, w, h, bitDepth)).toBe(expected);
        const near = nearbyPlane(prev, bitDepth, 99 + w);
        expect(ourSad(prev, near, w, h, bitDepth)).toBe(libvmafSad(prev, near, w, h, bitDepth));
        // the double-precision kernel agrees where the int32 one applies
        expect(ourSad(prev, near, w, h, bitDepth, true)).toBe(libvmafSad(prev, near, w, h, bitDepth));
      });
    }
  }

  test("samples beyond the bit depth (garbage high bits in a 10-bit file) follow libvmaf's C code", () => {
    const [w, h] = [37, 11];
    const prev = randomPlane(w, h, 10, 65536, 5);
    const cur = randomPlane(w, h, 10, 65536, 6);
    expect(ourSad(prev, cur, w, h, 10)).toBe(libvmafSad(prev, cur, w, h, 10));
  });

  test("identical pictures have no motion", () => {
    const p = randomPlane(40, 20, 8, 256, 3);
    expect(ourSad(p, p.slice(), 40, 20, 8)).toBe(0);
  });

  test("rows with a stride wider than the picture are read correctly", () => {
    const [w, h, stride] = [19, 8, 32];
    const packed = randomPlane(w, h, 8, 256, 11);
    const padded = new Uint8Array(stride * h).fill(255);
    for (let y = 0; y < h; y++) padded.set(packed.subarray(y * w, y * w + w), y * stride);
    const a = new Int32Array(w * h);
    const b = new Int32Array(w * h);
    blurColumns(padded, stride, w, h, 8, a);
    const cur = randomPlane(w, h, 8, 256, 12);
    blurColumns(cur, w, w, h, 8, b);
    expect(motionSad(a, b, w, h, 8, true)).toBe(libvmafSad(packed, cur, w, h, 8));
  });
});
