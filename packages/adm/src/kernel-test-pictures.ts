// Pictures for the kernel tests of adm and float_adm (each kernel against its TypeScript
// reference): imported by tests only, so no build emits it.
import type { PictureFormat, PicturePair } from "@vq/core";
import { lumaPicture, seededRandom } from "@vq/core/testing";

/**
 * Structure and noise, a distorted twin, noise alone, a picture against itself and against
 * a contrast-enhanced copy (restored coefficients boosted up to the gain limit).
 */
export function naturalPairs(format: PictureFormat, seed: number): PicturePair[] {
  const max = 2 ** format.bitDepth - 1;
  const random = seededRandom(seed);
  const ref = lumaPicture(format, (x, y) => max * (0.5 + 0.4 * Math.sin(x / 3) * Math.cos(y / 5)) + (random() - 0.5) * max * 0.2);
  const dist = lumaPicture(format, (x, y) => max * (0.5 + 0.35 * Math.sin(x / 3 + 0.1) * Math.cos(y / 5)) + (random() - 0.5) * max * 0.3);
  const noise = lumaPicture(format, () => random() * max);
  const luma = ref.planes[0]!;
  const enhanced = lumaPicture(format, (x, y) => max / 2 + 1.4 * (luma.data[y * luma.stride + x]! - max / 2));
  return [
    { ref, dist },
    { ref: noise, dist: ref },
    { ref: dist, dist: noise },
    { ref, dist: ref },
    { ref, dist: enhanced },
  ];
}

/** Hard edges between 0 and full scale, noise and flat pictures: the largest coefficients and none at all. */
export function extremePairs(format: PictureFormat, seed: number): PicturePair[] {
  const peak = 2 ** format.bitDepth - 1;
  const random = seededRandom(seed);
  const checker = lumaPicture(format, (x, y) => (((x >> 1) + (y >> 1)) % 2 ? peak : 0));
  const salt = lumaPicture(format, () => (random() < 0.5 ? peak : 0));
  const blocks = lumaPicture(format, (x, y) => (((x >> 2) + (y >> 3)) % 2 ? peak : Math.floor(random() * peak)));
  const stripes = lumaPicture(format, (x) => (x & 1 ? peak : 0));
  const full = lumaPicture(format, () => peak);
  const zero = lumaPicture(format, () => 0);
  return [
    { ref: checker, dist: salt },
    { ref: checker, dist: blocks },
    { ref: salt, dist: checker },
    { ref: stripes, dist: full },
    { ref: full, dist: stripes },
    { ref: checker, dist: checker },
    { ref: full, dist: zero },
    { ref: zero, dist: zero },
  ];
}
