import { describe, expect, test } from "bun:test";
import { Y4mReader, type VideoReader } from "@vq/core";
import { goldenOutput, goldenPairs, goldenPath, goldenRun } from "@vq/core/golden";
import { gpuForTests } from "@vq/gpu-core/testing";
import { scoreLadder } from "./ladder.ts";
import { score, type FrameScores, type ScoreRequest } from "./score.ts";

// nat_576x324's three renditions: a ladder with libvmaf's output for each rung.
const rungs = goldenPairs().filter((p) => p.reference.endsWith("nat_576x324.ref.y4m"));
const reference = goldenPath(rungs[0]!.reference);
const gpu = await gpuForTests();

/** The first `n` frames of a Y4M file: a rendition shorter than its reference. */
async function firstFrames(path: string, n: number): Promise<VideoReader> {
  const reader = await Y4mReader.open(path);
  let read = 0;
  return {
    name: `${path} (first ${n} frames)`,
    format: reader.format,
    read: async () => (read++ < n ? reader.read() : null),
    release: (p) => reader.release(p),
    close: () => reader.close(),
  };
}

async function frames(run: AsyncIterable<FrameScores>): Promise<FrameScores[]> {
  const out: FrameScores[] = [];
  for await (const f of run) out.push(f);
  return out;
}

const backends = gpu ? (["cpu", "gpu"] as const) : (["cpu"] as const);

describe.each(backends)("scoreLadder on the %s", (backend) => {
  const common: Omit<ScoreRequest, "distorted"> = { reference, features: ["psnr", "float_ssim"], backend };

  test("each rendition's frames and pooled scores are a single run's, and libvmaf's", async () => {
    expect(rungs.length).toBe(3);
    const ladder = scoreLadder({ ...common, distorted: rungs.map((p) => goldenPath(p.distorted)) });
    const laneFrames = await Promise.all(ladder.runs.map(frames));
    const outcomes = await ladder.result;
    for (const [k, rung] of rungs.entries()) {
      const single = score({ ...common, distorted: goldenPath(rung.distorted) });
      expect(laneFrames[k]).toEqual(await frames(single));
      const summary = outcomes[k]!.summary!;
      expect(summary.pooled).toEqual((await single.result).pooled);
      const golden = goldenOutput(goldenRun(rung, "all"), true);
      expect(summary.frames).toBe(rung.frame_count);
      for (const f of laneFrames[k]!) {
        expect(f.metrics.vmaf).toBe(golden.frames[f.frameNum]!.metrics.vmaf!);
        expect(f.metrics.integer_motion2).toBe(golden.frames[f.frameNum]!.metrics.integer_motion2!);
      }
    }
  }, 120_000);

  test("a shorter rendition ends alone: its temporal scores are those of a run that ends there", async () => {
    const short = rungs[1]!;
    const notes: string[] = [];
    const ladder = scoreLadder({ ...common, distorted: [goldenPath(rungs[0]!.distorted), await firstFrames(goldenPath(short.distorted), 10)] }, { onNote: (m) => notes.push(m) });
    const outcomes = await ladder.result;
    const alone = await score({ ...common, distorted: await firstFrames(goldenPath(short.distorted), 10) }).result;
    expect(outcomes[1]!.summary!.frames).toBe(10);
    expect(outcomes[1]!.summary!.pooled).toEqual(alone.pooled);
    expect([...outcomes[1]!.summary!.collector.frame(9)]).toEqual([...alone.collector.frame(9)]);
    expect(outcomes[0]!.summary!.frames).toBe(rungs[0]!.frame_count);
    expect(notes.some((n) => n.includes("first 10 frames"))).toBe(true);
  }, 120_000);

  test("a rendition that fails is reported; the others finish", async () => {
    const ladder = scoreLadder({ ...common, distorted: ["missing-rendition.y4m", goldenPath(rungs[2]!.distorted)] });
    const outcomes = await ladder.result;
    expect(outcomes[0]!.error?.message).toContain("missing-rendition.y4m");
    expect(ladder.runs[0]!.result).rejects.toThrow("missing-rendition.y4m");
    expect(outcomes[1]!.summary!.pooled.vmaf!.mean).toBe(goldenOutput(goldenRun(rungs[2]!, "all"), true).pooled_metrics.vmaf!.mean!);
  }, 120_000);
});
