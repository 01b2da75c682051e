import type { FeatureCollector, FeatureExtractor, PictureFormat, PicturePair } from "@vq/core";
import { motionDefinition, motionFeatureNames, motionFrameDistance, motionOptions, type MotionFeatureNames, type MotionOptions } from "./definition.ts";
import { ColumnHistory } from "./column-history.ts";
import { clipMotion } from "./motion-blend.ts";
import { blurColumns, motionSad } from "./motion-sad.ts";
import { Motion2And3Writer } from "./motion-temporal.ts";

const TWO_32 = 4294967296;

/** libvmaf's per-frame motion score: mean |blurred difference| in 8-bit units (SAD / 256 / pixels), weighted and clipped. */
export function sadScore(sad: number, width: number, height: number, options: MotionOptions): number {
  const pixels = (width * height) % TWO_32; // libvmaf multiplies two unsigned ints
  return clipMotion((sad / 256 / pixels) * options.motion_fps_weight, options.motion_max_val);
}

/**
 * libvmaf's integer `motion` on the CPU. Only the reference is looked at: each frame's SAD
 * score compares its luma with that of 1 (or 2) frames before; motion2/motion3 need the
 * next frame's score too, so they are written at flush.
 */
export class MotionCpu implements FeatureExtractor<PicturePair> {
  readonly definition = motionDefinition;
  readonly names: MotionFeatureNames;
  private readonly distance: 1 | 2;
  private history?: ColumnHistory;
  private bitDepth = 8;
  private readonly motion2And3: Motion2And3Writer;

  constructor(readonly options: MotionOptions) {
    this.names = motionFeatureNames(options);
    this.distance = motionFrameDistance(options);
    this.motion2And3 = new Motion2And3Writer(this.names, options);
  }

  init(format: PictureFormat): void {
    motionDefinition.checkFormat?.(this.options, format);
    this.bitDepth = format.bitDepth;
    if (this.options.motion_force_zero) return; // every score is 0: nothing to keep
    this.history = new ColumnHistory(format.width, format.height, this.distance);
  }

  extract(frame: PicturePair, index: number, collector: FeatureCollector): void {
    let score = 0;
    const history = this.history;
    if (history) {
      const luma = frame.ref.planes[0]!;
      const cur = history.current();
      cur.narrow = blurColumns(luma.data, luma.stride, luma.width, luma.height, this.bitDepth, cur.columns);
      // started after frame 0 (a warm-up, warmUpFrames): no earlier frame yet, a score that is dropped
      if (index >= this.distance && history.holds(this.distance)) {
        const prev = history.back(this.distance);
        const sad = motionSad(prev.columns, cur.columns, luma.width, luma.height, this.bitDepth, prev.narrow && cur.narrow);
        score = sadScore(sad, luma.width, luma.height, this.options);
      }
      history.advance();
    } else if (!this.options.motion_force_zero) {
      throw new Error("motion: extract before init");
    }
    this.motion2And3.writeScore(collector, index, score);
  }

  flush(collector: FeatureCollector): void {
    this.motion2And3.finish(collector);
  }

  close(): void {
    this.history = undefined;
  }
}

export function createMotionCpu(options: Partial<MotionOptions> = {}): MotionCpu {
  return new MotionCpu(motionOptions.resolve(options));
}
