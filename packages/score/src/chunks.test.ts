import { describe, expect, test } from "bun:test";
import { goldenOutput, goldenPairs, goldenPath, goldenRun } from "@vq/core/golden";
import { gpuForTests } from "@vq/gpu-core/testing";
import { mergeChunks, planChunks, scoreChunk, type ChunkScores } from "./chunks.ts";
import { score, type ScoreRequest, type ScoreSummary } from "./score.ts";

const pair = goldenPairs().find((p) => p.distorted.endsWith("nat_576x324.x264crf30.y4m"))!;
const golden = goldenOutput(goldenRun(pair, "all"), true);
const gpu = await gpuForTests();

/** A run scored chunk by chunk (each as its own run), then merged; the chunks go through JSON as a queue carries them. */
async function chunked(request: ScoreRequest, chunkFrames: number): Promise<ScoreSummary> {
  const chunks: ChunkScores[] = [];
  for (const range of planChunks(pair.frame_count, chunkFrames).reverse()) chunks.push(JSON.parse(JSON.stringify(await scoreChunk(request, range))));
  return mergeChunks(request, chunks);
}

/** Every frame's every score, the pooled scores and the aggregates of a summary. */
function everything(s: ScoreSummary) {
  return { names: s.collector.names(), frames: Array.from({ length: s.frames }, (_, i) => s.collector.frame(i)), pooled: s.pooled, aggregate: s.aggregate, frameCount: s.frames };
}

describe.each(gpu ? (["cpu", "gpu"] as const) : (["cpu"] as const))("a run scored in chunks on the %s", (backend) => {
  test("VMAF, psnr with its whole-run APSNR and float_ssim, in chunks of 10 frames: identical to the whole run, and to libvmaf", async () => {
    const request: ScoreRequest = { reference: goldenPath(pair.reference), distorted: goldenPath(pair.distorted), backend, features: ["psnr=enable_apsnr=true", "float_ssim"] };
    const whole = await score(request).result;
    const merged = await chunked(request, 10);
    expect(everything(merged)).toEqual(everything(whole));
    for (let i = 0; i < merged.frames; i++) {
      expect(merged.collector.get("vmaf", i)).toBe(golden.frames[i]!.metrics.vmaf!);
      expect(merged.collector.get("integer_motion2", i)).toBe(golden.frames[i]!.metrics.integer_motion2!);
    }
    expect(merged.aggregate.apsnr_y).toBeDefined();
  }, 240_000);
});

describe("chunks on the CPU", () => {
  test("motion's moving average and five-frame window, subsampling and a frame count: identical to the whole run, in chunks as small as one frame", async () => {
    for (const [features, extra, sizes] of [
      // the five-frame window reads two frames ahead (frame 0's motion3 needs frame 2): chunks of 1 and 2 frames check the look-ahead
      [["motion=motion_moving_average=true:motion_five_frame_window=true", "speed_temporal"], { frameCount: 9 }, [1, 2]],
      [["motion=motion_moving_average=true:motion_five_frame_window=true", "speed_temporal"], {}, [7]],
      [["float_motion"], { subsample: 3, frameCount: 40 }, [7]],
    ] as const) {
      const request: ScoreRequest = { reference: goldenPath(pair.reference), distorted: goldenPath(pair.distorted), backend: "cpu", noPrediction: true, features: [...features], ...extra };
      const whole = await score(request).result;
      for (const size of sizes) {
        const chunks: ChunkScores[] = [];
        for (const range of planChunks(whole.frames, size)) chunks.push(await scoreChunk(request, range));
        expect(everything(await mergeChunks(request, chunks))).toEqual(everything(whole));
      }
    }
  }, 240_000);

  test("each chunk scores its frames' models (a bootstrap model, subsampled); chunks without them (an older vq's) are scored in the merge", async () => {
    const request: ScoreRequest = { reference: goldenPath(pair.reference), distorted: goldenPath(pair.distorted), backend: "cpu", models: ["version=vmaf_b_v0.6.3"], subsample: 2, frameCount: 20 };
    const whole = await score(request).result;
    const chunks: ChunkScores[] = [];
    for (const range of planChunks(whole.frames, 7)) chunks.push(await scoreChunk(request, range));
    expect(chunks[1]!.values.vmaf_bagging!.slice(0, 2)).toEqual([null, whole.collector.get("vmaf_bagging", 8)!]);
    expect(everything(await mergeChunks(request, chunks))).toEqual(everything(whole));
    const keys = ["vmaf", "vmaf_bagging", "vmaf_stddev", "vmaf_ci_p95_lo", "vmaf_ci_p95_hi", ...Array.from({ length: 20 }, (_, k) => `vmaf_${String(k + 1).padStart(4, "0")}`)];
    expect(keys.every((k) => k in chunks[0]!.values)).toBe(true);
    const older = chunks.map((c, k) => (k === 1 ? { ...c, names: c.names.filter((n) => !keys.includes(n)), values: Object.fromEntries(Object.entries(c.values).filter(([n]) => !keys.includes(n))) } : c));
    expect(everything(await mergeChunks(request, older))).toEqual(everything(whole));
  }, 120_000);

  test("missing chunks, and a chunk past the inputs' end, are one-line errors", async () => {
    const request: ScoreRequest = { reference: goldenPath(pair.reference), distorted: goldenPath(pair.distorted), backend: "cpu", noPrediction: true, features: ["psnr"] };
    const [a, , c] = planChunks(pair.frame_count, 8);
    const chunks = [await scoreChunk(request, a!), await scoreChunk(request, c!)];
    await expect(mergeChunks(request, chunks)).rejects.toThrow("chunks: frames 8 to 16 are missing (or scored twice)");
    await expect(mergeChunks(request, [chunks[0]!])).rejects.toThrow("chunks: the run's last chunk (its end) is missing");
    await expect(scoreChunk(request, { start: 20, end: 30, last: false })).rejects.toThrow(`chunk: the inputs end after ${pair.frame_count} frames, before the chunk's frames 20 to 30 and the one after`);
    expect(() => planChunks(10, 0)).toThrow("chunk frames: expected a positive integer, got 0");
    expect(planChunks(25, 10)).toEqual([
      { start: 0, end: 10, last: false },
      { start: 10, end: 20, last: false },
      { start: 20, end: 25, last: true },
    ]);
  }, 60_000);
});
