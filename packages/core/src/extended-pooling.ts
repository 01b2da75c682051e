import type { FeatureCollector } from "./extraction/feature-collector.ts";
import { POOL_METHODS, poolFeature, poolScores, type PooledScore } from "./pooling.ts";

/** What is pooled: libvmaf's four statistics, or those and the distribution's (`--pool extended`). */
export type PoolMode = "libvmaf" | "extended";
export const POOL_MODES: readonly PoolMode[] = ["libvmaf", "extended"];

export type ExtendedPoolMethod = "median" | "stdev" | "p1" | "p5" | "p95";
export const EXTENDED_POOL_METHODS: readonly ExtendedPoolMethod[] = ["median", "stdev", "p1", "p5", "p95"];

export type ExtendedPooledScore = PooledScore & Record<ExtendedPoolMethod, number>;

/**
 * numpy.percentile's default method ("linear"): the virtual index (n − 1)·q/100 between the
 * closest ranks, interpolated with numpy's _lerp (from the upper neighbour when the fraction
 * is ≥ 0.5), so results match numpy bit for bit. `sorted` is ascending and not empty.
 */
export function percentile(sorted: ArrayLike<number>, q: number): number {
  const last = sorted.length - 1;
  const index = last * (q / 100);
  if (index >= last) return sorted[last]!;
  const below = Math.floor(index);
  const t = index - below;
  const a = sorted[below]!;
  const b = sorted[below + 1]!;
  const d = b - a;
  return t >= 0.5 ? b - d * (1 - t) : a + d * t;
}

/** numpy.median: the middle value, or the mean of the two middle ones. */
export function median(sorted: ArrayLike<number>): number {
  const n = sorted.length;
  const mid = n >> 1;
  return n % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * libvmaf's pooled statistics over frames [low, high] (every `subsample`-th, the frames
 * libvmaf pools), plus median, population standard deviation (around libvmaf's mean) and
 * the 1st, 5th and 95th percentiles. Undefined when a frame in range has no score.
 */
export function poolScoresExtended(get: (index: number) => number | undefined, low: number, high: number, subsample = 1): ExtendedPooledScore | undefined {
  const pooled = poolScores(get, low, high, subsample);
  if (!pooled) return undefined;
  const values: number[] = [];
  for (let i = low; i <= high; i++) if (subsample <= 1 || i % subsample === 0) values.push(get(i)!);
  let squares = 0;
  for (const x of values) squares += (x - pooled.mean) * (x - pooled.mean);
  // Float64Array sorts numerically, infinities included (a comparator x − y would not).
  const sorted = Float64Array.from(values).sort();
  return {
    ...pooled,
    median: median(sorted),
    stdev: Math.sqrt(squares / values.length),
    p1: percentile(sorted, 1),
    p5: percentile(sorted, 5),
    p95: percentile(sorted, 95),
  };
}

export function poolFeatureExtended(collector: FeatureCollector, name: string, frameCount: number, subsample = 1): ExtendedPooledScore | undefined {
  if (frameCount < 1) return undefined;
  const scores = collector.scores(name);
  if (!scores) return undefined;
  return poolScoresExtended((i) => scores.get(i), 0, frameCount - 1, subsample);
}

/**
 * One feature's pooled statistics as the writers print them, in order: libvmaf's four, then
 * (extended) the distribution's. Undefined where libvmaf leaves the feature's pool out.
 */
export function pooledEntries(collector: FeatureCollector, name: string, o: { frameCount: number; subsample: number; pool?: PoolMode }): [string, number][] | undefined {
  if (o.pool === "extended") {
    const p = poolFeatureExtended(collector, name, o.frameCount, o.subsample);
    return p && [...POOL_METHODS, ...EXTENDED_POOL_METHODS].map((m) => [m, p[m]]);
  }
  const p = poolFeature(collector, name, o.frameCount, o.subsample);
  return p && POOL_METHODS.map((m) => [m, p[m]]);
}
