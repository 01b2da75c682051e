/**
 * `vq --timing`: when the first frame was scored, counted from process start, and the
 * rate of the run's second half, measured inside the process. The second half leaves out
 * start-up (runtime, GPU device, pipelines) and the first batches' ramp, so it is the rate
 * a long video runs at; the whole process's rate (frames over wall time) includes both.
 */
export class RunTiming {
  /** (frames sent, ms since process start): the rate (frames go out as fast as earlier ones come back). */
  private readonly points: [number, number][] = [];
  /** When the first frame's scores were complete, and the last's. */
  private first?: number;
  private last?: [frames: number, ms: number];

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** `frames` frames are read and sent to the extractors so far. */
  mark(frames: number): void {
    if (frames > (this.points.at(-1)?.[0] ?? 0)) this.points.push([frames, this.now()]);
  }

  /**
   * `frames` frames have every score so far. A frame's scores come after it was sent: a
   * GPU batch's once the batch is back, and motion2 once the next frame's motion is in.
   */
  scored(frames: number): void {
    if (frames <= (this.last?.[0] ?? 0)) return;
    const at = this.now();
    this.first ??= at;
    this.last = [frames, at];
  }

  summary(): TimingSummary | undefined {
    const last = this.points.at(-1);
    if (!last || this.first === undefined) return undefined;
    const [frames, endMs] = last;
    const firstScoreMs = this.first;
    // From the first point at or past half the frames to the last: whole batches only.
    const half = this.points.find(([n]) => n >= frames / 2)!;
    const steady = half[0] < frames && endMs > half[1] ? { fromFrame: half[0], fps: ((frames - half[0]) * 1000) / (endMs - half[1]) } : undefined;
    return { frames: this.last![0], firstScoreMs, lastScoreMs: this.last![1], steady };
  }
}

export interface TimingSummary {
  frames: number;
  /** Process start to the first frame's scores. */
  firstScoreMs: number;
  /** Process start to the last frame's scores (pooling and writing come after). */
  lastScoreMs: number;
  /** Frames from `fromFrame` to the end over the time they took; absent when one batch holds them all. */
  steady?: { fromFrame: number; fps: number };
}

/** `timing: first score 452 ms after process start; 2400 frames scored by 1830 ms; steady 2210 fps (frames 1200–2400)` */
export function timingLine(t: TimingSummary): string {
  const steady = t.steady ? `; steady ${t.steady.fps.toFixed(1)} fps (frames ${t.steady.fromFrame}–${t.frames})` : "; steady rate: n/a (the frames came back in one batch)";
  return `timing: first score ${t.firstScoreMs.toFixed(0)} ms after process start; ${t.frames} frame${t.frames === 1 ? "" : "s"} scored by ${t.lastScoreMs.toFixed(0)} ms${steady}`;
}
