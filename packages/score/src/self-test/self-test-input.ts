import { Picture, type PictureFormat, type PicturePair } from "@vq/core";

/**
 * The self-test's picture format: 8-bit 4:2:0, just above every minimum size of vq's GPU
 * extractors (float_ms_ssim's five scales need 176x176, SpEED's chroma 80x80, cambi a
 * side of 216).
 */
export const SELF_TEST_FORMAT: PictureFormat = { width: 224, height: 176, bitDepth: 8, pixelFormat: "420" };

/** Frames in the self-test: enough for the temporal extractors (motion, SpEED) to compare frames. */
export const SELF_TEST_FRAMES = 3;

/** A small deterministic generator (a 32-bit LCG): the same pictures on every machine. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s >>> 24;
  };
}

/**
 * Frame `frame` of the self-test's pair: a reference of gradients, edges and texture that
 * moves from frame to frame, and a distorted copy with noise and a flattened band (so every
 * extractor sees structure, motion, noise and banding). Generated in code: no file to ship.
 */
export function selfTestPair(frame: number): PicturePair {
  const ref = Picture.allocate(SELF_TEST_FORMAT);
  const dist = Picture.allocate(SELF_TEST_FORMAT);
  const noise = lcg(0x5e1f7e57 + frame);
  for (const [p, plane] of ref.planes.entries()) {
    const d = dist.planes[p]!;
    for (let y = 0; y < plane.height; y++) {
      for (let x = 0; x < plane.width; x++) {
        const u = x + 3 * frame;
        const texture = ((u >> 2) ^ (y >> 2)) & 1 ? 24 : 0;
        const edge = u % 37 < 18 ? 40 : 0;
        const v = Math.min(255, 16 + ((u * 2 + y) % 160) + texture + edge + 8 * p);
        plane.data[y * plane.stride + x] = v;
        const banded = y > plane.height / 2 && y < (plane.height * 3) / 4 ? v & ~15 : v;
        d.data[y * d.stride + x] = Math.max(0, Math.min(255, banded + (noise() % 9) - 4));
      }
    }
  }
  return { ref, dist };
}
