import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { FeatureCollector } from "./extraction/feature-collector.ts";
import { median, percentile, poolScoresExtended } from "./extended-pooling.ts";
import { goldenDir, type LibvmafJson } from "./golden.ts";
import { writeJson } from "./output/json.ts";
import { numpyStatistics } from "./testing.ts";

describe("percentile and median", () => {
  test("linear interpolation between closest ranks", () => {
    const ranks = Float64Array.from({ length: 101 }, (_, i) => i * 2);
    for (const q of [0, 1, 5, 50, 95, 100]) expect(percentile(ranks, q)).toBe(2 * q);
    expect(percentile(Float64Array.of(10, 20), 5)).toBe(10.5);
    expect(percentile(Float64Array.of(10, 20), 95)).toBe(19.5);
    expect(percentile(Float64Array.of(7), 1)).toBe(7);
  });

  test("median of an odd and an even count", () => {
    expect(median(Float64Array.of(1, 2, 9))).toBe(2);
    expect(median(Float64Array.of(1, 2, 4, 9))).toBe(3);
  });

  test("poolScoresExtended keeps libvmaf's four and pools the same frames (subsample)", () => {
    const scores = [5, 1, 4, 1, 5, 9, 2, 6, 5, 3];
    const e = poolScoresExtended((i) => scores[i], 0, scores.length - 1, 3)!;
    const pooled = [5, 1, 2, 3]; // frames 0, 3, 6, 9
    expect(e.min).toBe(1);
    expect(e.max).toBe(5);
    expect(e.mean).toBe(11 / 4);
    expect(e.harmonic_mean).toBe(4 / pooled.reduce((a, s) => a + 1 / (s + 1), 0) - 1);
    expect(e.median).toBe(2.5);
    expect(e.stdev).toBe(numpyStatistics(pooled).stdev);
    expect(poolScoresExtended((i) => (i === 4 ? undefined : 1), 0, 5)).toBeUndefined();
  });
});

/**
 * libvmaf's per-frame values (out_full/, exact doubles) through vq's writer with
 * `pool: "extended"`: the extra statistics equal a recomputation from the frames written,
 * and without them the file is libvmaf's stock output byte for byte.
 */
const dir = goldenDir();
const files = readdirSync(join(dir, "out_full")).filter((f) => f.endsWith(".json"));
const EXTRA = /,\n {6}"(median|stdev|p1|p5|p95)": [^,\n]*/g;
const withoutTimings = (text: string) => text.replace(/^ {2}"(version|fps)": .*\n/gm, "");

function collectorFrom(json: LibvmafJson): FeatureCollector {
  const c = new FeatureCollector();
  for (const f of json.frames) for (const [k, v] of Object.entries(f.metrics)) c.append(k, f.frameNum, v === null ? Infinity : v);
  for (const [k, v] of Object.entries(json.aggregate_metrics)) c.setAggregate(k, v ?? Infinity);
  return c;
}

function expectRecomputed(written: LibvmafJson): void {
  for (const [name, p] of Object.entries(written.pooled_metrics)) {
    const values = written.frames.map((f) => f.metrics[name]!);
    expect(Object.keys(p)).toEqual(["min", "max", "mean", "harmonic_mean", "median", "stdev", "p1", "p5", "p95"]);
    if (values.some((v) => v === null || !Number.isFinite(v))) continue; // an infinite score (null) has no finite spread
    const e = p as Record<string, number>;
    const numpy = numpyStatistics(values);
    expect(e.median, name).toBe(numpy.median);
    expect(e.p1, name).toBe(numpy.p1);
    expect(e.p5, name).toBe(numpy.p5);
    expect(e.p95, name).toBe(numpy.p95);
    // numpy sums pairwise: equal up to rounding
    expect(Math.abs(e.stdev! - numpy.stdev), name).toBeLessThanOrEqual(1e-12 * Math.max(1, Math.abs(e.mean!)));
  }
}

describe("writeJson with pool: extended", () => {
  test(`golden has outputs (${files.length})`, () => expect(files.length).toBeGreaterThan(100));
  for (const file of files) {
    test(file, () => {
      const full = JSON.parse(readFileSync(join(dir, "out_full", file), "utf8")) as LibvmafJson;
      const c = collectorFrom(full);
      const options = { subsample: 1, frameCount: full.frames.length, version: "x", fps: 0, pool: "extended" as const };
      expectRecomputed(JSON.parse(writeJson(c, { ...options, precision: "max" })));
      const stock = readFileSync(join(dir, "out", file), "utf8");
      expect(withoutTimings(writeJson(c, { ...options, precision: 6 }).replace(EXTRA, ""))).toBe(withoutTimings(stock));
    });
  }

  test("with subsample: pooled over the frames written, as libvmaf pools", () => {
    const full = JSON.parse(readFileSync(join(dir, "out_full", "nat_576x324.x264crf30.all.json"), "utf8")) as LibvmafJson;
    const written = JSON.parse(writeJson(collectorFrom(full), { precision: "max", subsample: 5, frameCount: full.frames.length, version: "x", fps: 0, pool: "extended" })) as LibvmafJson;
    expect(written.frames.map((f) => f.frameNum)).toEqual([0, 5, 10, 15, 20]);
    expectRecomputed(written);
  });
});
