/** Test support shared by the packages' tests (`@vq/core/testing`). */

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
