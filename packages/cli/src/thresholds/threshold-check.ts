import { formatRoundTrip, numberFormatter } from "@vq/core";
import type { PooledStatistics } from "@vq/score";
import type { Threshold } from "./threshold-expression.ts";

/** vq's exit code when scoring succeeded and a threshold failed (1 is an error). */
export const THRESHOLD_FAILED_EXIT_CODE = 3;

export interface ThresholdFailure {
  threshold: Threshold;
  /** Undefined when the run has no such pooled statistic (libvmaf leaves a feature unpooled when a frame lacks it). */
  measured?: number;
}

function holds(t: Threshold, x: number): boolean {
  switch (t.operator) {
    case ">=":
      return x >= t.value;
    case ">":
      return x > t.value;
    case "<=":
      return x <= t.value;
    case "<":
      return x < t.value;
  }
}

/**
 * The thresholds one run's pooled scores fail (median, stdev and the percentiles need the
 * run scored with pool: "extended"). NaN and a missing statistic fail.
 */
export function thresholdFailures(thresholds: readonly Threshold[], pooled: Readonly<Record<string, PooledStatistics>>): ThresholdFailure[] {
  return thresholds.flatMap((threshold) => {
    const measured = pooled[threshold.metric]?.[threshold.statistic];
    return measured !== undefined && holds(threshold, measured) ? [] : [{ threshold, measured }];
  });
}

/**
 * `threshold failed: vmaf.mean>=93 (measured 71.329066)`, prefixed with the distorted input
 * when given. The measured value is printed at the run's precision unless that rounding
 * would pass the threshold (92.9999997 at 6 digits), then exactly.
 */
export function thresholdFailureLine(f: ThresholdFailure, precision: number | "max", distorted?: string): string {
  let measured = "no pooled value";
  if (f.measured !== undefined) {
    const shown = numberFormatter(precision)(f.measured);
    measured = `measured ${holds(f.threshold, Number(shown)) ? formatRoundTrip(f.measured) : shown}`;
  }
  return `${distorted ? `${distorted}: ` : ""}threshold failed: ${f.threshold.expression} (${measured})`;
}
