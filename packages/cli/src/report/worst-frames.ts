import { worstFrames, type RankedFrame, type ReportData } from "./report-data.ts";

/** Digits after the point for every number in a worst-frames table (one precision, so the columns line up). */
export const WORST_FRAMES_DECIMALS = 3;

export interface WorstFrame extends RankedFrame {
  /** The run's lowest value (every frame tied with it is marked). */
  isMinimum: boolean;
  /** value − the run's mean (negative: only frames below the mean are listed). */
  belowMean: number;
}

export interface WorstFrames {
  key: string;
  /** The pooled mean from the file, or the mean of the finite per-frame values when the file has none. */
  mean: number | undefined;
  /** At most `n` frames below the mean, lowest first. */
  frames: WorstFrame[];
  /** How many frames are below the mean in all (the table may show fewer). */
  belowCount: number;
}

/**
 * The frames that drag a run down: only those strictly below its mean (a frame at or above
 * the mean is no "worst" frame, however short the video), lowest first, ties by frame
 * number. Null (infinite) scores are never ranked.
 */
export function framesBelowMean(data: ReportData, key: string, n: number): WorstFrames {
  const ranked = worstFrames(data, key, Infinity);
  const pooledMean = data.pooled[key]?.mean;
  // summed in frame order, as a pooled mean is
  const finite = (data.values[key] ?? []).filter((v): v is number => typeof v === "number");
  const mean = typeof pooledMean === "number" ? pooledMean : finite.length ? finite.reduce((s, v) => s + v, 0) / finite.length : undefined;
  if (mean === undefined) return { key, mean, frames: [], belowCount: 0 };
  const below = ranked.filter((f) => f.value < mean);
  const minimum = below[0]?.value;
  return {
    key,
    mean,
    frames: below.slice(0, n).map((f) => ({ ...f, isMinimum: f.value === minimum, belowMean: f.value - mean })),
    belowCount: below.length,
  };
}

/** A number in a worst-frames table. */
export function fixed(value: number): string {
  return value.toFixed(WORST_FRAMES_DECIMALS);
}
