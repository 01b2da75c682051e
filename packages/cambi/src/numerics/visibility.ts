import { VqError } from "@vq/core";
import { LUMA_FOOT, LUMA_HEAD, luminance, type Eotf } from "./luminance.ts";

/** A contrast step of `diff` codes above `sample` is visible: ΔL > tvi · L. */
function visible(sample: number, diff: number, tvi: number, eotf: Eotf): boolean {
  const mean = luminance(sample, eotf);
  const stepped = luminance(sample + diff, eotf);
  return stepped - mean > tvi * mean;
}

const TOO_SMALL = 0;
const CORRECT = 1;
const TOO_BIG = 2;

/** Where `sample` sits relative to the last code at which a `diff` step is still visible. */
function bisectFlag(sample: number, diff: number, tvi: number, eotf: Eotf): number {
  if (!visible(sample, diff, tvi, eotf)) return TOO_BIG;
  if (visible(sample + 1, diff, tvi, eotf)) return TOO_SMALL;
  return CORRECT;
}

/**
 * The largest 10-bit code at which a step of `diff` codes is visible, found by libvmaf's
 * bisection (same probes, same answer): 0 if no step is visible, 1023 if all are.
 */
export function tviForDiff(diff: number, tvi: number, eotf: Eotf): number {
  let foot = LUMA_FOOT;
  let head = LUMA_HEAD - diff - 1;
  let flag = bisectFlag(foot, diff, tvi, eotf);
  if (flag === TOO_BIG) return 0;
  if (flag === CORRECT) return foot;
  flag = bisectFlag(head, diff, tvi, eotf);
  if (flag === TOO_SMALL) return 1023;
  if (flag === CORRECT) return head;
  // libvmaf loops until it finds the edge; visibility falls with luminance, so ~10 probes do.
  for (let probes = 0; probes < 64; probes++) {
    const mid = foot + ((head - foot) >> 1);
    flag = bisectFlag(mid, diff, tvi, eotf);
    if (flag === CORRECT) return mid;
    if (flag === TOO_BIG) head = mid;
    else foot = mid;
  }
  throw new VqError(`feature cambi: tvi_threshold=${tvi}: no visibility edge found for a ${diff}-code step`);
}

/**
 * The smallest 10-bit code whose luminance reaches `threshold` (0 when the darkest code
 * already does): darker codes are taken as too dark for banding to be seen.
 */
export function visibleLumaFloor(threshold: number, eotf: Eotf): number {
  // libvmaf walks up from the foot and never ends if even peak white is darker than the threshold.
  const peak = luminance(LUMA_HEAD, eotf);
  if (peak < threshold) {
    throw new VqError(`feature cambi: cambi_vis_lum_threshold=${threshold} is above this EOTF's peak luminance ${peak}`);
  }
  let sample = LUMA_FOOT;
  while (luminance(sample, eotf) < threshold) sample++;
  return sample === LUMA_FOOT ? 0 : sample;
}
