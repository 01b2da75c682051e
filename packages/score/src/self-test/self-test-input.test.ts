import { describe, expect, test } from "bun:test";
import { FeatureCollector } from "@vq/core";
import { EXTRACTORS } from "../catalogue.ts";
import { resolveFeatures } from "../features.ts";
import { SELF_TEST_FRAMES, selfTestFormat, selfTestPair } from "./self-test-input.ts";

describe("the self-test's input", () => {
  test("is the same picture on every call", () => {
    const a = selfTestPair(1);
    const b = selfTestPair(1);
    expect(Buffer.from(a.dist.buffer).equals(Buffer.from(b.dist.buffer))).toBe(true);
    expect(Buffer.from(a.ref.buffer).equals(Buffer.from(selfTestPair(2).ref.buffer))).toBe(false);
  });

  // An input on which an extractor scores 0 everywhere (SpEED on a plane too small for its
  // blocks, cambi without banding) would let any GPU pass: every key must vary.
  test("every GPU extractor scores something on it: each key takes a nonzero value after frame 0", async () => {
    const gpuExtractors = EXTRACTORS.filter((e) => e.load.gpu).map((e) => e.name);
    const degenerate: string[] = [];
    for (const feature of await resolveFeatures(gpuExtractors.map((name) => ({ name, options: {} })))) {
      const name = feature.entry.definition.name;
      const cpu = feature.entry.cpu(feature.options);
      const scores = new FeatureCollector();
      await cpu.init(selfTestFormat(name));
      for (let i = 0; i < SELF_TEST_FRAMES; i++) await cpu.extract(selfTestPair(i, selfTestFormat(name)), i, scores);
      await cpu.flush(scores);
      await cpu.close();
      for (const key of scores.names()) {
        const later = [...scores.scores(key)!].filter(([i]) => i > 0).map(([, v]) => v);
        if (!later.length || !later.every(Number.isFinite) || later.every((v) => v === 0)) degenerate.push(`${name}: ${key} ${later.join(", ")}`);
      }
    }
    expect(degenerate).toEqual([]);
  }, 30_000);
});
