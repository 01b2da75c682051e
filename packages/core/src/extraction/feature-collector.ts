/**
 * Per-frame feature scores and per-run aggregates, keyed by the names libvmaf writes.
 * Features keep the order of their first score, which is the order libvmaf's writers use.
 */
export class FeatureCollector {
  private readonly features = new Map<string, Map<number, number>>();
  private readonly aggregates = new Map<string, number>();

  append(name: string, index: number, score: number): void {
    let scores = this.features.get(name);
    if (!scores) {
      scores = new Map();
      this.features.set(name, scores);
    }
    if (scores.has(index)) throw new Error(`feature ${name} already has a score at frame ${index}`);
    scores.set(index, score);
  }

  /**
   * Fixes a feature's place in the output order before any score arrives, so the order
   * is that of the extractors, not that of which backend finished first.
   */
  reserve(name: string): void {
    if (!this.features.has(name)) this.features.set(name, new Map());
  }

  /**
   * Drops every score of frames `from` on, keeping each feature's place in the order: what
   * a run that stopped mid-way wrote for frames it had not finished (resuming elsewhere).
   */
  discardFrom(from: number): void {
    for (const scores of this.features.values()) for (const i of scores.keys()) if (i >= from) scores.delete(i);
  }

  setAggregate(name: string, value: number): void {
    this.aggregates.set(name, value);
  }

  get(name: string, index: number): number | undefined {
    return this.features.get(name)?.get(index);
  }

  has(name: string, index: number): boolean {
    return this.features.get(name)?.has(index) ?? false;
  }

  /** Feature names in first-written order. */
  names(): string[] {
    return [...this.features].filter(([, scores]) => scores.size > 0).map(([name]) => name);
  }

  /** Whether any feature has a score at this frame. */
  hasFrame(index: number): boolean {
    for (const scores of this.features.values()) if (scores.has(index)) return true;
    return false;
  }

  /** Scores of one frame in feature order (only the features written for that frame). */
  frame(index: number): [string, number][] {
    const out: [string, number][] = [];
    for (const [name, scores] of this.features) {
      const s = scores.get(index);
      if (s !== undefined) out.push([name, s]);
    }
    return out;
  }

  /** One past the highest frame index with any score. */
  frameCount(): number {
    let n = 0;
    for (const scores of this.features.values()) for (const i of scores.keys()) n = Math.max(n, i + 1);
    return n;
  }

  scores(name: string): ReadonlyMap<number, number> | undefined {
    return this.features.get(name);
  }

  aggregateEntries(): [string, number][] {
    return [...this.aggregates];
  }
}
