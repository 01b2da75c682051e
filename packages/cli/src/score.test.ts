import { describe, expect, test } from "bun:test";
import { memoryReader, VqError, Y4mReader } from "@vq/core";
import { goldenOutput, goldenPairs, goldenPath, goldenRun } from "@vq/core/golden";
import { score, type FrameScores } from "./score.ts";

const pair = goldenPairs().find((p) => p.pair === "nat_576x324.x264crf30")!;

describe("score(): the library API", () => {
  test("streams libvmaf's per-frame scores while reading, then returns the pooled scores", async () => {
    let progress = 0;
    let progressAtFirstFrame = -1;
    const frames: FrameScores[] = [];
    const run = score({ reference: goldenPath(pair.reference), distorted: goldenPath(pair.distorted), backend: "cpu" }, { onProgress: (n) => (progress = n) });
    let next = await run.next();
    while (!next.done) {
      if (progressAtFirstFrame < 0) progressAtFirstFrame = progress;
      frames.push(next.value);
      next = await run.next();
    }
    const golden = goldenOutput(goldenRun(pair, "vmaf_v0.6.1neg"), true); // same pair, for the frame count
    expect(frames.map((f) => f.frameNum)).toEqual(golden.frames.map((f) => f.frameNum));
    const all = goldenOutput(goldenRun(pair, "all"), true);
    for (const f of frames) {
      expect(f.metrics.vmaf).toBe(all.frames[f.frameNum]!.metrics.vmaf!);
      expect(f.metrics.integer_adm2).toBe(all.frames[f.frameNum]!.metrics.integer_adm2!);
    }
    expect(next.value.pooled.vmaf).toEqual(all.pooled_metrics.vmaf as never);
  });

  test("hands out frames before the input ends when no feature waits for later frames", async () => {
    let progress = 0;
    let progressAtFirstFrame = -1;
    for await (const _ of score({ reference: goldenPath(pair.reference), distorted: goldenPath(pair.distorted), features: ["psnr", "vif"], noPrediction: true, backend: "cpu" }, { onProgress: (n) => (progress = n) })) {
      if (progressAtFirstFrame < 0) progressAtFirstFrame = progress;
    }
    expect(progressAtFirstFrame).toBeGreaterThan(0);
    expect(progressAtFirstFrame).toBeLessThan(pair.frame_count);
  });

  test("takes frames from memory (typed arrays) with the same results as files", async () => {
    async function frames(path: string): Promise<Uint8Array[]> {
      const r = await Y4mReader.open(path);
      const out: Uint8Array[] = [];
      for (let p = await r.read(); p; p = await r.read()) out.push(p.buffer.slice(0, (p.width * p.height * 3) / 2));
      await r.close();
      return out;
    }
    const format = { width: pair.width, height: pair.height, bitDepth: 8, pixelFormat: "420" as const };
    const fromMemory = score({
      reference: memoryReader("ref", format, await frames(goldenPath(pair.reference))),
      distorted: memoryReader("dist", format, await frames(goldenPath(pair.distorted))),
      features: ["psnr"],
      noPrediction: true,
      backend: "cpu",
    });
    const fromFiles = score({ reference: goldenPath(pair.reference), distorted: goldenPath(pair.distorted), features: [{ name: "psnr", options: {} }], noPrediction: true, backend: "cpu" });
    const a: FrameScores[] = [];
    const b: FrameScores[] = [];
    for await (const f of fromMemory) a.push(f);
    for await (const f of fromFiles) b.push(f);
    expect(a.length).toBe(pair.frame_count);
    expect(a).toEqual(b);
  });

  test("validates its options with a message naming the option", async () => {
    const bad = score({ reference: "a.y4m", distorted: "b.y4m", threads: 0 });
    const err = await bad.next().catch((e) => e);
    expect(err).toBeInstanceOf(VqError);
    expect(err.message).toContain("threads");
    const unknown = await score({ reference: "a.y4m", distorted: "b.y4m", colour: "red" } as never)
      .next()
      .catch((e) => e);
    expect(unknown.message).toContain("colour");
  });
});
