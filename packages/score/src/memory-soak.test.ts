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

describe("memory over a long run stays flat apart from the stored scores", () => {
  test("CPU, VMAF v0.6.1, 3000 frames of 160x120", async () => {
    const { samples, scoredFrames, keys } = await soak({ frames: 3000, width: 160, height: 120, backend: "cpu", every: 250 });
    expect(scoredFrames).toBe(3000);
    const g = growth(samples, 500);
    // the scores of 2500 frames: a few hundred KB (keys x frames doubles)
    expect(g.heap).toBeLessThan((keys * 2500 * 16) + 8 * MB);
    expect(g.rss).toBeLessThan(40 * MB);
  }, 300_000);

  test.skipIf(!gpu)("GPU, VMAF v0.6.1, 2000 frames of 160x120", async () => {
    const { samples, scoredFrames, keys } = await soak({ frames: 2000, width: 160, height: 120, backend: "gpu", every: 250 });
    expect(scoredFrames).toBe(2000);
    const g = growth(samples, 500);
    expect(g.heap).toBeLessThan((keys * 1500 * 16) + 8 * MB);
    expect(g.rss).toBeLessThan(40 * MB);
  }, 300_000);
});
