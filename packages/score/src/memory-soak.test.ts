import { describe, expect, test } from "bun:test";
import { gpuForTests } from "@vq/gpu-core/testing";
import { soak, type MemorySample } from "./memory-soak.ts";

const MB = 1 << 20;
const gpu = await gpuForTests();

/**
 * Growth from the first sample after warm-up to the end: what a leak would show. A leak of
 * one 160x120 picture per frame (29 KB) over these runs is 43 MB or more.
 */
function growth(samples: readonly MemorySample[], from: number) {
  const start = samples.find((s) => s.frame >= from)!;
  const end = samples[samples.length - 1]!;
  return { rss: end.rss - start.rss, heap: end.heap - start.heap };
}

// frames and where growth is measured from (after warm-up); the GPU runs on lavapipe in CI
const RUNS = [
  { backend: "cpu", frames: 3000, from: 500, available: true },
  { backend: "gpu", frames: 2000, from: 500, available: gpu !== null },
] as const;

describe("memory over a long run stays flat apart from the stored scores", () => {
  for (const run of RUNS) {
    test.skipIf(!run.available)(`${run.backend}, VMAF v0.6.1, ${run.frames} frames of 160x120`, async () => {
      const { samples, scoredFrames, keys } = await soak({ frames: run.frames, width: 160, height: 120, backend: run.backend, every: 250 });
      expect(scoredFrames).toBe(run.frames);
      const g = growth(samples, run.from);
      // the scores of the frames after warm-up: a few hundred KB (keys x frames doubles)
      expect(g.heap).toBeLessThan(keys * (run.frames - run.from) * 16 + 8 * MB);
      expect(g.rss).toBeLessThan(40 * MB);
    }, 300_000);
  }
});
