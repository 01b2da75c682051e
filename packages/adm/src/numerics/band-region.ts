/**
 * The part of a band adm looks at: libvmaf drops ADM_BORDER_FACTOR (10%) of each side.
 * Stages that feed the 3x3 masking filter work on a region one tap wider.
 * C converts the double expressions to int by truncation toward zero; so does Math.trunc.
 */

const BORDER = 0.1;

export interface Region {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** Region scored by the numerator and denominator sums. */
export function scoreRegion(w: number, h: number): Region {
  const left = Math.trunc(w * BORDER - 0.5);
  const top = Math.trunc(h * BORDER - 0.5);
  return { left, top, right: w - left, bottom: h - top };
}

/** Region decoupled and CSF-weighted: the score region plus the masking filter's taps. */
export function filterRegion(w: number, h: number): Region {
  const left = Math.trunc(w * BORDER - 0.5 - 1);
  const top = Math.trunc(h * BORDER - 0.5 - 1);
  return {
    left: Math.max(left, 0),
    top: Math.max(top, 0),
    right: Math.min(w - left + 2, w),
    bottom: Math.min(h - top + 2, h),
  };
}
