import { describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { memoryReader, VqError } from "@vq/core";
import { y4mFrameBytes } from "@vq/core/testing";
import { goldenOutput, goldenPairs, goldenPath, goldenRun } from "@vq/core/golden";
import { score, type FrameScores } from "./score.ts";

const pair = goldenPairs().find((p) => p.pair === "nat_576x324.x264crf30")!;

describe("score(): the library API", () => {
  test("streams libvmaf's per-frame scores while reading, then returns the pooled scores", async () => {
    let progress = 0;
    let progressAtFirstFrame = -1;
    const frames: FrameScores[] = [];
    const run = score({ reference: goldenPath(pair.reference), distorted: goldenPath(pair.distorted), backend: "cpu" }, { onProgress: (n) => (progress = n) });
    for await (const frame of run) {
      if (progressAtFirstFrame < 0) progressAtFirstFrame = progress;
      frames.push(frame);
    }
    const golden = goldenOutput(goldenRun(pair, "vmaf_v0.6.1neg"), true); // same pair, for the frame count
    expect(frames.map((f) => f.frameNum)).toEqual(golden.frames.map((f) => f.frameNum));
    const all = goldenOutput(goldenRun(pair, "all"), true);
    for (const f of frames) {
      expect(f.metrics.vmaf).toBe(all.frames[f.frameNum]!.metrics.vmaf!);
      expect(f.metrics.integer_adm2).toBe(all.frames[f.frameNum]!.metrics.integer_adm2!);
    }
    expect((await run.result).pooled.vmaf).toEqual(all.pooled_metrics.vmaf as never);
  });

  test("result resolves with the pooled scores when the frames are never read", async () => {
    const run = score({ reference: goldenPath(pair.reference), distorted: goldenPath(pair.distorted), features: ["psnr"], backend: "cpu" });
    const summary = await run.result;
    const all = goldenOutput(goldenRun(pair, "all"), true);
    expect(summary.frames).toBe(pair.frame_count);
    expect(summary.pooled.vmaf!.mean).toBe(all.pooled_metrics.vmaf!.mean!);
    expect(summary.pooled.psnr_y!.mean).toBe(all.pooled_metrics.psnr_y!.mean!);
  });

  test("leaving the loop early still lets result resolve", async () => {
    const run = score({ reference: goldenPath(pair.reference), distorted: goldenPath(pair.distorted), features: ["psnr"], noPrediction: true, backend: "cpu" });
    for await (const f of run) if (f.frameNum === 0) break;
    expect((await run.result).frames).toBe(pair.frame_count);
  });

  test("a failure rejects result and the iteration, with no unhandled rejection", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on("unhandledRejection", onUnhandled);
    try {
      // nobody reads result here: only the iteration sees the failure
      const iterated = score({ reference: "missing-ref.y4m", distorted: "missing-dist.y4m", features: ["psnr"], noPrediction: true });
      const err = await (async () => {
        for await (const _ of iterated);
      })().catch((e) => e);
      expect(err).toBeInstanceOf(VqError);
      expect(err.message).toContain("missing-ref.y4m");
      // nobody iterates here: only result sees it
      const awaited = score({ reference: "missing-ref.y4m", distorted: "missing-dist.y4m", features: ["psnr"], noPrediction: true });
      expect(await awaited.result.catch((e) => e)).toBeInstanceOf(VqError);
      // inputs ffmpeg decodes open at once, beside the GPU's start: the reference is still the one named
      const decoded = score({ reference: "missing-ref.mp4", distorted: "missing-dist.mp4", features: ["psnr"], noPrediction: true, backend: "gpu" });
      expect((await decoded.result.catch((e) => e)).message).toBe("missing-ref.mp4: no such file");
      const dir = mkdtempSync(join(tmpdir(), "vq-score-"));
      const reference = join(dir, "ref.mkv");
      // a reference ffmpeg takes a while to open, a distorted input that fails at once
      execFileSync("ffmpeg", ["-v", "error", "-i", goldenPath(pair.reference), "-frames:v", "2", "-c:v", "ffv1", reference]);
      const distorted = score({ reference, distorted: "missing-dist.mp4", features: ["psnr"], noPrediction: true, backend: "gpu" });
      expect((await distorted.result.catch((e) => e)).message).toBe("missing-dist.mp4: no such file");
      rmSync(dir, { recursive: true });
      await new Promise((r) => setTimeout(r, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
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
    const format = { width: pair.width, height: pair.height, bitDepth: 8, pixelFormat: "420" as const };
    const fromMemory = score({
      reference: memoryReader("ref", format, await y4mFrameBytes(goldenPath(pair.reference))),
      distorted: memoryReader("dist", format, await y4mFrameBytes(goldenPath(pair.distorted))),
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

  test("the docs' example: vif asked with debug by the request and with defaults by the model is one run, its superset", async () => {
    const run = score({ reference: goldenPath(pair.reference), distorted: goldenPath(pair.distorted), features: ["psnr", { name: "vif", options: { debug: true } }], backend: "cpu" });
    const frames: FrameScores[] = [];
    for await (const f of run) frames.push(f);
    const all = goldenOutput(goldenRun(pair, "all"), true);
    const debug = goldenOutput(goldenRun(pair, "debug"), true);
    const vifKeys = Object.keys(debug.frames[0]!.metrics).filter((k) => k.startsWith("integer_vif"));
    expect(vifKeys).toContain("integer_vif_num_scale3");
    expect(frames).toHaveLength(all.frames.length);
    for (const f of frames) {
      expect(f.metrics.vmaf).toBe(all.frames[f.frameNum]!.metrics.vmaf!);
      for (const k of vifKeys) expect(f.metrics[k]).toBe(debug.frames[f.frameNum]!.metrics[k]!);
    }
    expect((await run.result).pooled.vmaf).toEqual(all.pooled_metrics.vmaf as never);
  });

  test("a feature asked twice with options that change its scores is one clear error", async () => {
    const err = await score({ reference: goldenPath(pair.reference), distorted: goldenPath(pair.distorted), features: ["psnr", "psnr=min_sse=1"], noPrediction: true, backend: "cpu" }).result.catch((e) => e);
    expect(err).toBeInstanceOf(VqError);
    expect(err.message).toContain("feature psnr is asked for twice");
    expect(err.message).toContain("min_sse=0");
    expect(err.message).toContain("min_sse=1");
    // a different feature parameter is a different run, under its own keys, as in libvmaf
    const both = await score({ reference: goldenPath(pair.reference), distorted: goldenPath(pair.distorted), features: ["vif=vif_enhn_gain_limit=1"], backend: "cpu" }).result;
    expect(both.pooled.integer_vif_scale0).toBeDefined();
    expect(both.pooled.integer_vif_scale0_egl_1).toBeDefined();
  });

  test("validates its options with a message naming the option", async () => {
    const bad = score({ reference: "a.y4m", distorted: "b.y4m", threads: 0 });
    const err = await bad.result.catch((e) => e);
    expect(err).toBeInstanceOf(VqError);
    expect(err.message).toContain("threads");
    const unknown = await score({ reference: "a.y4m", distorted: "b.y4m", colour: "red" } as never).result.catch((e) => e);
    expect(unknown.message).toContain("colour");
    const model = await score({ reference: "a.y4m", distorted: "b.y4m", models: ["vmaf_v0.6.1"] }).result.catch((e) => e);
    expect(model).toBeInstanceOf(VqError);
    expect(model.message).toStartWith('invalid models entry "vmaf_v0.6.1"');
    expect(model.message).not.toContain("--");
    const feature = await score({ reference: "a.y4m", distorted: "b.y4m", features: ["psnr=enable_mse"] }).result.catch((e) => e);
    expect(feature.message).toStartWith('invalid features entry "psnr=enable_mse"');
  });
});
