import type { PictureFormat, VideoReader } from "@vq/core";
import { syntheticReader } from "@vq/core/testing";

/** How a synthetic plane's samples are made: plane index, x, y, frame -> sample. */
export type SampleFn = (plane: number, x: number, y: number, frame: number) => number;

function hash(a: number, b: number, c: number, seed: number): number {
  return (Math.imul((a * 73856093) ^ (b * 19349663) ^ (c * 83492791) ^ Math.imul(seed, 0x9e3779b9), 0x85ebca6b) >>> 8) / 16777216;
}

/** Textured content: gradients, a moving blob and noise, in the format's sample range. */
export function texture(format: PictureFormat, seed: number, noise = 0.08): SampleFn {
  const max = (1 << format.bitDepth) - 1;
  return (plane, x, y, frame) => {
    const blob = Math.exp(-((x - 30 - 3 * frame) ** 2 + (y - 25) ** 2) / 300);
    const v = 0.35 + 0.2 * Math.sin((x + 2 * plane) / 7 + frame / 3) * Math.cos(y / 11) + 0.25 * blob + noise * (hash(x, y, frame * 3 + plane, seed) - 0.5);
    return Math.max(0, Math.min(max, Math.round(v * max)));
  };
}

/** Frames whose samples `sample` gives, for tests the golden set cannot cover. */
export function syntheticVideo(name: string, format: PictureFormat, frames: number, sample: SampleFn): VideoReader {
  return syntheticReader(name, format, frames, (p, frame) => {
    p.planes.forEach((plane, k) => {
      for (let y = 0; y < plane.height; y++) for (let x = 0; x < plane.width; x++) plane.data[y * plane.stride + x] = sample(k, x, y, frame);
    });
  });
}
