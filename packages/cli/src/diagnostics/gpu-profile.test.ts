import { expect, test } from "bun:test";
import { gpuForTests } from "@vq/gpu-core/testing";
import { goldenPairs, goldenPath } from "@vq/core/golden";
import { score } from "@vq/score";
import { gpuProfileTable } from "./gpu-profile.ts";

test("the table gives each pass's time per frame and the total", () => {
  const table = gpuProfileTable({ "vif scale 0": 3_000_000, "motion sad": 1_000_000 }, 2);
  expect(table).toContain("over 2 frames");
  expect(table).toMatch(/vif scale 0\s+1500\.0 µs\/frame\s+75\.0 %/);
  expect(table).toMatch(/total\s+2000\.0 µs\/frame\s+100\.0 %/);
  expect(gpuProfileTable(undefined, 2)).toContain("nothing ran on the GPU");
  expect(gpuProfileTable({}, 2)).toContain("no timestamp queries");
  expect(gpuProfileTable({ "vif scale 0": 3_000_000 }, 2, 5_000_000)).toMatch(/first pass start to last pass end \(gaps between passes included\)\s+2500\.0 µs\/frame/);
});

const gpu = await gpuForTests();
test.skipIf(!gpu)("a GPU run times every kernel pass of every extractor", async () => {
  const pair = goldenPairs().find((p) => p.pair.startsWith("odd_321x241"))!;
  const run = score({ reference: goldenPath(pair.reference), distorted: goldenPath(pair.distorted), backend: "gpu", profileGpu: true });
  const summary = await run.result;
  const labels = Object.keys(summary.gpuTimeNs ?? {});
  if (gpu!.hasTimestamps) {
    for (const stage of ["vif", "adm", "motion"]) expect(labels.some((l) => l.startsWith(stage))).toBe(true);
    // the span from the first pass to the last covers the longest pass at least (passes may overlap)
    expect(summary.gpuSpanNs!).toBeGreaterThanOrEqual(Math.max(...Object.values(summary.gpuTimeNs!)) / summary.frames);
  } else expect(labels).toEqual([]);
});
