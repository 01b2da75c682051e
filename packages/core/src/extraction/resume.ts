import type { OptionValues } from "../options/options.ts";
import type { ExtractorDefinition } from "./extractor.ts";
import { FeatureCollector } from "./feature-collector.ts";

/** A feature key a run writes, and whether it is written for every frame or (subsampled) only every `subsample`th. */
export interface ExpectedKey {
  readonly name: string;
  /** Temporal extractors write every frame, whatever the subsampling. */
  readonly everyFrame: boolean;
}

/** The keys a set of extractors writes per frame, each with whether it is written for every frame. */
export function expectedKeys(extractors: readonly { definition: ExtractorDefinition<any>; options: OptionValues<any> }[], format: Parameters<ExtractorDefinition["providedFeatures"]>[1]): ExpectedKey[] {
  return extractors.flatMap(({ definition, options }) => definition.providedFeatures(options, format).map((name) => ({ name, everyFrame: definition.temporal })));
}

/**
 * The first frame a stopped run had not finished: every frame before it has all of its
 * scores (a frame whose scores are partly written counts as not done, and so does every
 * frame after it, whatever they hold).
 */
export function firstUnfinishedFrame(collector: FeatureCollector, keys: readonly ExpectedKey[], subsample: number): number {
  const end = collector.frameCount();
  for (let i = 0; i < end; i++) {
    const sampled = subsample <= 1 || i % subsample === 0;
    for (const k of keys) if ((sampled || k.everyFrame) && !collector.has(k.name, i)) return i;
  }
  return end;
}

/**
 * The frames before `from` a run resumed at `from` must compute again, for extractors
 * started afresh to write what a run from frame 0 writes (ExtractorDefinition.warmUpFrames).
 */
export function warmUpStart(from: number, extractors: readonly { definition: ExtractorDefinition<any>; options: OptionValues<any> }[]): number {
  const warmUp = Math.max(0, ...extractors.map(({ definition, options }) => definition.warmUpFrames?.(options) ?? (definition.temporal ? Infinity : 0)));
  return Math.max(0, from - warmUp);
}

/**
 * The collector of a run resumed at frame `from` after warming up on earlier frames: it
 * keeps every score (temporal extractors read theirs back), and passes on those of frames
 * `from` on, and the aggregates, to the stopped run's collector (whose scores from `from`
 * on were discarded).
 */
export class ResumedCollector extends FeatureCollector {
  constructor(private readonly run: FeatureCollector, private readonly from: number) {
    super();
  }

  override append(name: string, index: number, score: number): void {
    super.append(name, index, score);
    if (index >= this.from) this.run.append(name, index, score);
  }

  override setAggregate(name: string, value: number): void {
    super.setAggregate(name, value);
    this.run.setAggregate(name, value);
  }
}
