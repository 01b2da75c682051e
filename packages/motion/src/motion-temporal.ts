import type { FeatureCollector } from "@vq/core";
import { motionFrameDistance, type MotionFeatureNames, type MotionOptions } from "./definition.ts";
import { clipMotion, motionBlend } from "./motion-blend.ts";

/**
 * libvmaf's integer motion2 and motion3: motion2 is the smaller of a frame's SAD score and
 * the next one's (motion between frames i and i+1 counts for both), motion3 is motion2
 * blended, clipped and optionally averaged with the previous frame's. The frames before
 * the first compared one get 0 for motion2 and, for motion3, the processed score of that
 * first compared frame. Reads the SAD scores back from the collector, as libvmaf does, so
 * the CPU and GPU twins share it.
 *
 * `advance` writes every frame whose next frame's score is in (so scores stream as a run
 * goes: a frame's VMAF score needs its motion2); `finish` writes the rest at the end (the
 * last frame has no successor: its own score).
 */
export class Motion2And3Writer {
  /** The next frame to write. */
  private next = 0;
  /** Processed motion2 of the frame before `next` (motion3's moving average). */
  private previous = 0;
  private started = false;
  private readonly distance: number;

  constructor(
    private readonly names: MotionFeatureNames,
    private readonly options: MotionOptions,
  ) {
    this.distance = motionFrameDistance(options);
  }

  /**
   * Both backends' per-frame output: frame `index`'s SAD score (and `motion` under debug),
   * then the motion2/motion3 values it completes. Index 0 starts a video afresh; so does
   * the first score, at any index (an extractor started mid-video to warm up, whose first
   * frames' scores are dropped: ExtractorDefinition.warmUpFrames).
   */
  writeScore(collector: FeatureCollector, index: number, score: number): void {
    if (index === 0 || !this.started) {
      this.next = index;
      this.previous = 0;
      this.started = true;
    }
    collector.append(this.names.sad, index, score);
    if (this.options.debug) collector.append(this.names.motion, index, score);
    this.advance(collector);
  }

  /** Writes the frames whose successor's score is in (and, for the first frames, the first compared frame's). */
  advance(collector: FeatureCollector): void {
    const sad = this.names.sad;
    while (collector.has(sad, this.next + 1) && (this.next >= this.distance || collector.has(sad, this.distance))) this.write(collector, this.next++);
  }

  /** Writes every frame left, once every SAD score is known. */
  finish(collector: FeatureCollector): void {
    let n = this.next;
    while (collector.has(this.names.sad, n)) n++;
    while (this.next < n) this.write(collector, this.next++);
  }

  private processed(score: number): number {
    const { options } = this;
    return clipMotion(motionBlend(score, options.motion_blend_factor, options.motion_blend_offset), options.motion_max_val);
  }

  private write(collector: FeatureCollector, i: number): void {
    const { names, options, distance } = this;
    let motion2: number;
    if (i < distance) {
      motion2 = 0;
    } else {
      const hi = collector.get(names.sad, i + 1);
      const lo = i - (distance - 1);
      if (hi === undefined) motion2 = collector.get(names.sad, i)!; // the last frame has no successor
      else if (lo >= distance) {
        const l = collector.get(names.sad, lo)!;
        motion2 = l < hi ? l : hi;
      } else motion2 = hi;
    }
    collector.append(names.motion2, i, motion2);

    let motion3: number;
    if (i < distance) {
      // the first compared frame's processed score, or 0 when the run has no compared frame
      const first = collector.get(names.sad, distance);
      motion3 = first === undefined ? 0 : this.processed(first);
      this.previous = motion3;
    } else {
      const p = this.processed(motion2);
      motion3 = options.motion_moving_average ? (p + this.previous) / 2.0 : p;
      this.previous = p;
    }
    collector.append(names.motion3, i, motion3);
  }
}
