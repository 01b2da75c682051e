import { describe, expect, test } from "bun:test";
import { poolFeatureExtended } from "@vq/core";
import { goldenOutput, goldenPairs, goldenPath, goldenRun } from "@vq/core/golden";
import { scoreLadder } from "./ladder.ts";
import { score, type ScoreRequest } from "./score.ts";

const pair = goldenPairs().find((p) => p.pair === "nat_576x324.x264crf30")!;
const request: ScoreRequest = { reference: goldenPath(pair.reference), distorted: goldenPath(pair.distorted), features: ["psnr"], noPrediction: true, backend: "cpu", subsample: 2 };

describe("ScoreSummary.pooled", () => {
  test("libvmaf's four statistics by default", async () => {
    const summary = await score(request).result;
    expect(Object.keys(summary.pooled.psnr_y!)).toEqual(["min", "max", "mean", "harmonic_mean"]);
  });

  test('pool: "extended" adds the distribution\'s, over the frames libvmaf pools; libvmaf\'s four unchanged', async () => {
    const summary = await score({ ...request, pool: "extended" }).result;
    const psnr = summary.pooled.psnr_y!;
    expect(psnr).toEqual(poolFeatureExtended(summary.collector, "psnr_y", summary.frames, 2)!);
    expect(Object.keys(psnr)).toEqual(["min", "max", "mean", "harmonic_mean", "median", "stdev", "p1", "p5", "p95"]);
    // libvmaf pools frames 0, 2, 4, ...: its values are the golden run's at those frames
    const golden = goldenOutput(goldenRun(pair, "all"), true).frames.filter((f) => f.frameNum % 2 === 0).map((f) => f.metrics.psnr_y!);
    expect(psnr.min).toBe(Math.min(...golden));
    expect(psnr.max).toBe(Math.max(...golden));
    const sorted = [...golden].sort((a, b) => a - b);
    expect(sorted).toHaveLength(12);
    expect(psnr.median).toBe((sorted[5]! + sorted[6]!) / 2);
  });

  test("a ladder pools each distorted input extended when asked", async () => {
    const outcomes = await scoreLadder({ ...request, distorted: [request.distorted as string, request.distorted as string], pool: "extended" }).result;
    expect(outcomes).toHaveLength(2);
    for (const o of outcomes) expect(Object.keys(o.summary!.pooled.psnr_y!)).toContain("p95");
    for (const o of outcomes) expect(o.summary!.pooled.psnr_y).toEqual(poolFeatureExtended(o.summary!.collector, "psnr_y", o.summary!.frames, 2)!);
  });
});
