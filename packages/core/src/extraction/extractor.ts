import type { FeatureCollector } from "./feature-collector.ts";
import type { OptionDef, OptionTable, OptionValues } from "../options/options.ts";
import type { Picture, PictureFormat } from "../picture.ts";

/**
 * What a feature extractor is, independent of where it runs: libvmaf's name, its
 * options, the outputs it provides and whether it looks at more than one frame. A CPU
 * implementation and its GPU twin share one definition, so they cannot disagree on
 * option names, ranges or output names.
 */
export interface ExtractorDefinition<T extends Record<string, OptionDef> = Record<string, OptionDef>> {
  /** libvmaf's extractor name (`--feature NAME`). */
  readonly name: string;
  readonly options: OptionTable<T>;
  /** Output names written with these options, as they appear in libvmaf's output. */
  providedFeatures(options: OptionValues<T>, format?: PictureFormat): string[];
  /** Uses previous frames (motion) or accumulates across the run (flush writes something). */
  readonly temporal: boolean;
  /**
   * Temporal extractors: how many frames before frame N an extractor started afresh must
   * see for every output it writes for frames N on (and its flush) to be those of a run
   * from frame 0 (resuming after a lost GPU; a run in chunks). Infinity: only a run from
   * frame 0 gives them (an aggregate over the whole run). Absent: 0 for an extractor that
   * is not temporal (each frame's outputs depend on that frame only), Infinity for one that is.
   */
  warmUpFrames?(options: OptionValues<T>): number;
  /** Rejects a picture format the extractor cannot score, with a clear message. */
  checkFormat?(options: OptionValues<T>, format: PictureFormat): void;
}

/** The reference and distorted pictures of one frame, on the CPU. */
export interface PicturePair {
  readonly ref: Picture;
  readonly dist: Picture;
}

/**
 * The lifecycle libvmaf's VmafFeatureExtractor has: init once with the picture format,
 * extract per frame (in frame order), flush at the end (temporal extractors write their
 * last scores or aggregates there), close to free resources. `Frame` is a PicturePair on
 * the CPU and an uploaded frame on the GPU.
 */
export interface FeatureExtractor<Frame = PicturePair> {
  readonly definition: ExtractorDefinition<any>;
  init(format: PictureFormat): void | Promise<void>;
  extract(frame: Frame, index: number, collector: FeatureCollector): void | Promise<void>;
  flush(collector: FeatureCollector): void | Promise<void>;
  close(): void | Promise<void>;
}

/** Builds a CPU extractor from validated options. */
export type ExtractorFactory<T extends Record<string, OptionDef>, Frame = PicturePair> = (options: OptionValues<T>) => FeatureExtractor<Frame>;

/**
 * A metric as a package exports it: its definition plus a CPU factory and, where a GPU
 * twin exists, a GPU factory (typed by @vq/gpu-core, which the CPU core does not know).
 */
export interface FeatureEntry<T extends Record<string, OptionDef> = any, Gpu = unknown> {
  readonly definition: ExtractorDefinition<T>;
  readonly cpu: ExtractorFactory<T>;
  readonly gpu?: (options: OptionValues<T>) => Gpu;
}
