import { expect, test } from "bun:test";
import { FeatureCollector } from "./feature-collector.ts";
import type { ExtractorDefinition } from "./extractor.ts";
import { firstUnfinishedFrame, ResumedCollector, warmUpStart } from "./resume.ts";

const keys = [
  { name: "adm", everyFrame: false },
  { name: "motion2", everyFrame: true },
];

function written(frames: Record<string, number[]>): FeatureCollector {
  const c = new FeatureCollector();
  for (const [name, at] of Object.entries(frames)) for (const i of at) c.append(name, i, i);
  return c;
}

test("the first unfinished frame: the first with a key missing; under subsampling a non-temporal key counts on sampled frames only", () => {
  expect(firstUnfinishedFrame(written({ adm: [0, 1, 2, 3], motion2: [0, 1] }), keys, 1)).toBe(2);
  // a frame written in part (a batch half collected) and the ones after it are not done
  expect(firstUnfinishedFrame(written({ adm: [0, 1, 3], motion2: [0, 1, 2, 3] }), keys, 1)).toBe(2);
  expect(firstUnfinishedFrame(written({ adm: [0, 3], motion2: [0, 1, 2, 3, 4] }), keys, 3)).toBe(5);
  expect(firstUnfinishedFrame(written({ adm: [0, 3], motion2: [0, 1, 2, 3] }), keys, 3)).toBe(4);
  expect(firstUnfinishedFrame(written({ adm: [0, 3], motion2: [0, 2, 3] }), keys, 3)).toBe(1);
  expect(firstUnfinishedFrame(new FeatureCollector(), keys, 1)).toBe(0);
});

test("a resumed run's collector passes on frames from its point and the aggregates; the run's keeps its order", () => {
  const run = written({ adm: [0, 1, 2], motion2: [0, 1] });
  run.discardFrom(1);
  expect(run.frame(1)).toEqual([]);
  const resumed = new ResumedCollector(run, 1);
  for (let i = 0; i < 3; i++) {
    resumed.append("motion2", i, 10 + i);
    resumed.append("adm", i, 20 + i);
  }
  resumed.setAggregate("apsnr_y", 40);
  expect(resumed.get("motion2", 0)).toBe(10); // kept for extractors that read their scores back
  expect(run.frame(0)).toEqual([["adm", 0], ["motion2", 0]]);
  expect(run.frame(2)).toEqual([["adm", 22], ["motion2", 12]]);
  expect(run.aggregateEntries()).toEqual([["apsnr_y", 40]]);
});

test("the warm-up start: the longest warm-up of the extractors; a temporal one that does not say starts from frame 0", () => {
  const definition = (temporal: boolean, warmUp?: number) => ({ definition: { temporal, warmUpFrames: warmUp === undefined ? undefined : () => warmUp } as unknown as ExtractorDefinition, options: {} });
  expect(warmUpStart(10, [definition(false), definition(true, 1), definition(true, 3)])).toBe(7);
  expect(warmUpStart(2, [definition(true, 3)])).toBe(0);
  expect(warmUpStart(10, [definition(false)])).toBe(10);
  expect(warmUpStart(10, [definition(true)])).toBe(0);
  expect(warmUpStart(10, [definition(true, Infinity)])).toBe(0);
});
