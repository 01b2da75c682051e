/** Test support shared by the packages' tests (`@vq/core/testing`). */

import { Picture, type PictureFormat } from "./picture.ts";
import type { VideoReader } from "./readers/video-reader.ts";

/** Deterministic pseudo-random numbers in [0, 1) (xorshift32), so that a failing test reproduces. */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

/** `frames` synthetic pictures for tests the golden set cannot cover: `fill` writes frame i's samples. */
export function syntheticReader(name: string, format: PictureFormat, frames: number, fill: (picture: Picture, frame: number) => void): VideoReader {
  let i = 0;
  return {
    name,
    format,
    async read() {
      if (i >= frames) return null;
      const p = Picture.allocate(format);
      fill(p, i++);
      return p;
    },
    release() {},
    async close() {},
  };
}

/** A reader over pictures already made (each handed out once, as a decoder would). */
export function pictureReader(name: string, format: PictureFormat, pictures: readonly Picture[]): VideoReader {
  let i = 0;
  return {
    name,
    format,
    async read() {
      return pictures[i++] ?? null;
    },
    release() {},
    async close() {},
  };
}
