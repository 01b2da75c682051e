import { Picture, type PictureFormat, type PicturePair } from "@vq/core";

/**
 * The self-test's picture format: 8-bit 4:2:0, just above every minimum size of vq's GPU
 * extractors (float_ms_ssim's five scales need 176x176, SpEED's chroma 80x80, cambi a
 * side of 216).
 */
export const SELF_TEST_FORMAT: PictureFormat = { width: 224, height: 176, bitDepth: 8, pixelFormat: "420" };

/**
 * The format an extractor's self-test scores: SELF_TEST_FORMAT, but 4:4:4 for speed_chroma,
 * whose model needs 2x2 blocks of 5x5 after decimating a chroma plane by 16 (with fewer it
 * scores 0 on any input, which would test nothing); 4:2:0 would need 448x320.
 */
export function selfTestFormat(extractor: string): PictureFormat {
  return extractor === "speed_chroma" ? { ...SELF_TEST_FORMAT, pixelFormat: "444" } : SELF_TEST_FORMAT;
}

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

/** A deterministic texture value in 0..255 for a sample position (an integer hash). */
function hash(x: number, y: number): number {
  let h = Math.imul(x, 0x27d4eb2d) ^ Math.imul(y, 0x165667b1);
  h = Math.imul(h ^ (h >>> 15), 0x85ebca6b);
  return (h ^ (h >>> 13)) >>> 24;
}

/**
 * Frame `frame` of the self-test's pair, generated in code (no file to ship). The reference:
 * a slow gradient across the top third, moving edges and bars across the middle, moving
 * texture across the bottom. The distorted copy: the gradient quantised into bands (cambi),
 * the rest with noise, so that every extractor sees structure, motion, noise and banding.
 */
export function selfTestPair(frame: number, format: PictureFormat = SELF_TEST_FORMAT): PicturePair {
  const ref = Picture.allocate(format);
  const dist = Picture.allocate(format);
  const noise = lcg(0x5e1f7e57 + frame);
  for (const [p, plane] of ref.planes.entries()) {
    const d = dist.planes[p]!;
    for (let y = 0; y < plane.height; y++) {
      const band = Math.floor((3 * y) / plane.height);
      for (let x = 0; x < plane.width; x++) {
        const u = x + 3 * frame;
        let v: number;
        // chroma: smooth waves with texture (SpEED's model finds a flat or periodic plane singular)
        if (p > 0) v = 128 + Math.round(40 * Math.sin((u + 5 * p) / 7) * Math.cos(y / 11)) + (hash(u, y + 101 * p) >> 4);
        else if (band === 0) v = 48 + Math.floor((x * 96) / plane.width);
        else if (band === 1) v = 40 + (u % 37 < 18 ? 90 : 0) + (((u >> 3) ^ (y >> 3)) & 1 ? 50 : 0);
        else v = 30 + (hash(u >> 1, y) * 3) / 4;
        plane.data[y * plane.stride + x] = v;
        const distorted = p === 0 && band === 0 ? v & ~7 : v + (noise() % 13) - 6 + (band === 2 ? (hash(x, y + 7 * frame) & 7) - 3 : 0);
        d.data[y * d.stride + x] = Math.max(0, Math.min(255, distorted));
      }
    }
  }
  return { ref, dist };
}
