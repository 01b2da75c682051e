import { describe, expect, test } from "bun:test";
import { goldenOutput, goldenPairs, goldenPath, goldenRun } from "@vq/core/golden";
import { gpuForTests } from "@vq/gpu-core/testing";
import { scoreBatch, type BatchJob, type BatchJobOutcome } from "./batch.ts";

const rungs = goldenPairs().filter((p) => p.reference.endsWith("nat_576x324.ref.y4m"));
const reference = goldenPath(rungs[0]!.reference);
const gpu = await gpuForTests();

async function all(run: AsyncIterable<BatchJobOutcome>): Promise<BatchJobOutcome[]> {
  const out: BatchJobOutcome[] = [];
  for await (const o of run) out.push(o);
  return out;
}

describe.each(gpu ? (["cpu", "gpu"] as const) : (["cpu"] as const))("scoreBatch on the %s", (backend) => {
  test("jobs in flight together each give libvmaf's scores; outcomes come in job order; a failing job is its outcome", async () => {
    const jobs: BatchJob[] = [
      { reference, distorted: goldenPath(rungs[0]!.distorted), backend },
      { reference, distorted: "missing.y4m", backend },
      { reference, distorted: [goldenPath(rungs[1]!.distorted), goldenPath(rungs[2]!.distorted)], backend },
      { reference, distorted: goldenPath(rungs[2]!.distorted), backend },
    ];
    const outcomes = await all(scoreBatch(jobs, { concurrency: 3 }));
    expect(outcomes.map((o) => o.index)).toEqual([0, 1, 2, 3]);
    expect(outcomes[1]!.outcomes[0]!.error?.message).toContain("missing.y4m");
    const scored = [
      [outcomes[0]!.outcomes[0]!, rungs[0]!],
      [outcomes[2]!.outcomes[0]!, rungs[1]!],
      [outcomes[2]!.outcomes[1]!, rungs[2]!],
      [outcomes[3]!.outcomes[0]!, rungs[2]!],
    ] as const;
    for (const [outcome, rung] of scored) {
      const golden = goldenOutput(goldenRun(rung, "all"), true);
      const summary = outcome.summary!;
      expect(summary.frames).toBe(rung.frame_count);
      for (let i = 0; i < summary.frames; i++) expect(summary.collector.get("vmaf", i)).toBe(golden.frames[i]!.metrics.vmaf!);
      expect(summary.pooled.vmaf!.mean).toBe(golden.pooled_metrics.vmaf!.mean!);
    }
  }, 240_000);
});

test("a concurrency that is not a positive integer is refused", async () => {
  await expect(all(scoreBatch([], { concurrency: 0 }))).rejects.toThrow("batch options: concurrency: expected a positive integer, got 0");
  await expect(all(scoreBatch([], { decoderThreads: 1.5 }))).rejects.toThrow("batch options: decoderThreads: expected a non-negative integer, got 1.5");
});

test("jobs from a stream: a finished job comes out while the next one has not arrived", async () => {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const job = (i: number): BatchJob => ({ reference, distorted: goldenPath(rungs[i]!.distorted), backend: "cpu", frameCount: 2 });
  async function* stream(): AsyncGenerator<BatchJob> {
    yield job(0);
    yield job(1);
    await gate; // the third job comes only once both earlier ones are out
    yield job(2);
  }
  const seen: number[] = [];
  for await (const o of scoreBatch(stream(), { concurrency: 2 })) {
    seen.push(o.index);
    expect(o.outcomes[0]!.summary!.frames).toBe(2);
    if (seen.length === 2) release();
  }
  expect(seen).toEqual([0, 1, 2]);
}, 60_000);
