import type { FeatureCollector } from "@vq/core";
import { motionFrameDistance, type MotionFeatureNames, type MotionOptions } from "./definition.ts";
import { clipMotion, motionBlend } from "./motion-blend.ts";

/**
 * libvmaf's integer motion flush: once every frame's SAD score is known, writes motion2
 * (the smaller of a frame's score and the next one's: motion between frames i and i+1
 * counts for both) and motion3 (motion2 blended, clipped and optionally averaged with the
 * previous frame). The frames before the first compared one get 0 for motion2 and, for
 * motion3, the processed score of that first compared frame.
 * Reads the SAD scores back from the collector, as libvmaf does, so a GPU twin can share it.
 */
export function writeMotion2And3(collector: FeatureCollector, names: MotionFeatureNames, options: MotionOptions): void {
  let n = 0;
  while (collector.has(names.sad, n)) n++;
  if (n === 0) return;

  // Five-frame window: SAD(i) compares frames i-2 and i, so motion2 takes the scores either side of i.
  const distance = motionFrameDistance(options);
  const sad = (i: number) => collector.get(names.sad, i);
  const processed = (score: number) => clipMotion(motionBlend(score, options.motion_blend_factor, options.motion_blend_offset), options.motion_max_val);

  const first = n > distance ? sad(distance) : undefined;
  const stamp = first === undefined ? 0 : processed(first);

  let previous = 0;
  for (let i = 0; i < n; i++) {
    let motion2: number;
    if (i < distance) {
      motion2 = 0;
    } else {
      const hi = sad(i + 1);
      const lo = i - (distance - 1);
      if (hi === undefined) motion2 = sad(i)!; // the last frame has no successor
      else if (lo >= distance) {
        const l = sad(lo)!;
        motion2 = l < hi ? l : hi;
      } else motion2 = hi;
    }
    collector.append(names.motion2, i, motion2);

    let motion3: number;
    if (i < distance) {
      motion3 = stamp;
      previous = stamp;
    } else {
      const p = processed(motion2);
      motion3 = options.motion_moving_average ? (p + previous) / 2.0 : p;
      previous = p;
    }
    collector.append(names.motion3, i, motion3);
  }
}
