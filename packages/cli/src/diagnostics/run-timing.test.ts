import { describe, expect, test } from "bun:test";
import { RunTiming, timingLine } from "./run-timing.ts";

/** A clock that reads the times given, one per mark; each mark's frames are sent and scored then. */
function timingAt(marks: [frames: number, ms: number][]): RunTiming {
  let now = 0;
  const t = new RunTiming(() => now);
  for (const [frames, ms] of marks) {
    now = ms;
    t.mark(frames);
    t.scored(frames);
  }
  return t;
}

describe("RunTiming", () => {
  test("steady rate: from the first batch at or past half the frames to the last", () => {
    // batches of 8 frames: 400 ms start-up, then 4 ms per batch
    const marks: [number, number][] = [];
    for (let b = 1; b <= 10; b++) marks.push([b * 8, 400 + b * 4]);
    const s = timingAt(marks).summary()!;
    expect(s.frames).toBe(80);
    expect(s.firstScoreMs).toBe(404);
    expect(s.lastScoreMs).toBe(440);
    expect(s.steady!.fromFrame).toBe(40);
    expect(s.steady!.fps).toBeCloseTo((40 * 1000) / 20, 9);
  });

  test("no steady rate when one batch brings every frame; repeated counts are ignored", () => {
    const s = timingAt([
      [5, 300],
      [5, 310],
    ]).summary()!;
    expect(s).toEqual({ frames: 5, firstScoreMs: 300, lastScoreMs: 300, steady: undefined });
    expect(timingLine(s)).toBe("timing: first score 300 ms after process start; 5 frames scored by 300 ms; steady rate: n/a (the frames came back in one batch)");
  });

  test("the first score is when a frame's scores are complete, not when it was sent", () => {
    let now = 0;
    const t = new RunTiming(() => now);
    for (let n = 1; n <= 10; n++) {
      now = 400 + n;
      t.mark(n);
    }
    // every frame's scores come at the end (motion2 needs the run's last frame)
    now = 450;
    for (let n = 1; n <= 10; n++) t.scored(n);
    const s = t.summary()!;
    expect(s.firstScoreMs).toBe(450);
    expect(s.lastScoreMs).toBe(450);
    expect(s.frames).toBe(10);
    expect(s.steady!.fromFrame).toBe(5);
    expect(s.steady!.fps).toBeCloseTo(1000, 9);
  });

  test("nothing scored: no summary", () => {
    expect(new RunTiming().summary()).toBeUndefined();
  });
});
