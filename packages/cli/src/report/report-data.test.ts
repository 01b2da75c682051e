import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isVqError } from "@vq/core";
import { goldenOutput, goldenPairs, goldenPath, goldenRun, type LibvmafJson } from "@vq/core/golden";
import { isModelKey, nullCount, parseReportData, primaryKey, worstFrames } from "./report-data.ts";
import { readReportData } from "./report-file.ts";

const dir = mkdtempSync(join(tmpdir(), "vq-report-data-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** libvmaf's `all` runs (the default model plus every feature), with their file paths. */
const allRuns = goldenPairs().map((p) => ({ pair: p, path: goldenPath(goldenRun(p, "all").output), json: goldenOutput(goldenRun(p, "all"), false) }));
const hasNull = (j: LibvmafJson) => j.frames.some((f) => Object.values(f.metrics).includes(null));

function errorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(isVqError(e)).toBe(true);
    return (e as Error).message;
  }
  throw new Error("expected a VqError");
}

describe("parseReportData on libvmaf's own output", () => {
  test.each(allRuns.map((r) => [r.pair.pair, r] as const))("%s: every frame, key and pooled score", (_, r) => {
    const d = readReportData(r.path);
    expect(d.frameNums).toEqual(r.json.frames.map((f) => f.frameNum));
    expect(d.keys).toEqual(Object.keys(r.json.frames[0]!.metrics));
    expect(d.modelKeys).toEqual(["vmaf"]);
    expect(d.featureKeys).toContain("VMAF_integer_feature_motion_sad_score");
    for (const k of d.keys) expect(d.values[k]).toEqual(r.json.frames.map((f) => f.metrics[k]));
    for (const [k, p] of Object.entries(r.json.pooled_metrics)) expect(d.pooled[k]).toEqual(p as never);
    expect(d.version).toBe(r.json.version);
  });

  test("null (infinite) scores stay null, per frame and pooled", () => {
    const r = allRuns.find((x) => hasNull(x.json));
    expect(r).toBeDefined();
    const d = readReportData(r!.path);
    const key = Object.keys(r!.json.frames[0]!.metrics).find((k) => r!.json.frames.some((f) => f.metrics[k] === null))!;
    expect(nullCount(d, key)).toBe(r!.json.frames.filter((f) => f.metrics[key] === null).length);
    expect(d.values[key]).toContain(null);
  });

  test("a bootstrap model's keys are all model scores", () => {
    const pair = goldenPairs()[0]!;
    const d = readReportData(goldenPath(goldenRun(pair, "vmaf_b_v0.6.3").output));
    const json = goldenOutput(goldenRun(pair, "vmaf_b_v0.6.3"), false);
    expect(d.modelKeys).toEqual(Object.keys(json.frames[0]!.metrics).filter((k) => k.startsWith("vmaf")));
    expect(d.modelKeys).toContain("vmaf_bagging");
    expect(primaryKey(d)).toBe("vmaf");
  });
});

describe("worst frames", () => {
  test("the lowest vmaf frames of a golden run, in order", () => {
    const r = allRuns[0]!;
    const d = readReportData(r.path);
    const expected = r.json.frames.map((f) => ({ frameNum: f.frameNum, value: f.metrics.vmaf as number })).sort((a, b) => a.value - b.value || a.frameNum - b.frameNum);
    expect(worstFrames(d, "vmaf", 3).map(({ frameNum, value }) => ({ frameNum, value }))).toEqual(expected.slice(0, 3));
  });

  test("null and missing values are never ranked; without a model the first key ranks", () => {
    const d = parseReportData({ version: "x", fps: 1, frames: [{ frameNum: 0, metrics: { psnr_y: null } }, { frameNum: 1, metrics: { psnr_y: 30 } }, { frameNum: 2, metrics: {} }], pooled_metrics: {} }, "t.json");
    expect(primaryKey(d)).toBe("psnr_y");
    expect(worstFrames(d, "psnr_y", 5).map((f) => f.frameNum)).toEqual([1]);
    expect(d.values.psnr_y).toEqual([null, 30, undefined]);
  });

  test("model keys: vmaf*, not libvmaf's VMAF_integer_feature_* features", () => {
    expect(isModelKey("vmaf_ci_p95_lo")).toBe(true);
    expect(isModelKey("VMAF_integer_feature_motion_sad_score")).toBe(false);
  });
});

describe("bad result files: one VqError naming the file and the field", () => {
  const good = () => JSON.parse(readFileSync(allRuns[0]!.path, "utf8"));
  const write = (name: string, text: string) => {
    const p = join(dir, name);
    writeFileSync(p, text);
    return p;
  };

  test("missing, a directory, not JSON", () => {
    expect(errorOf(() => readReportData(join(dir, "nope.json")))).toContain("nope.json: cannot read the result file: no such file");
    expect(errorOf(() => readReportData(dir))).toContain("is a directory");
    expect(errorOf(() => readReportData(write("scores.xml", "<VMAF version='3'/>")))).toStartWith(`${join(dir, "scores.xml")}: not a JSON result file`);
  });

  test("a score of the wrong type names its frame and key", () => {
    const j = good();
    j.frames[2].metrics.vmaf = "97.1";
    expect(errorOf(() => readReportData(write("type.json", JSON.stringify(j))))).toMatch(/type\.json: frames\[2\]\.metrics\.vmaf: .*number/);
  });

  test("missing fields, no frames, a bad pooled entry, a repeated frame", () => {
    const noVersion = good();
    delete noVersion.version;
    expect(errorOf(() => parseReportData(noVersion, "a.json"))).toStartWith("a.json: version: ");
    expect(errorOf(() => parseReportData({ ...good(), frames: [] }, "b.json"))).toBe("b.json: frames: no frames");
    expect(errorOf(() => parseReportData({ ...good(), pooled_metrics: { vmaf: { min: 1 } } }, "c.json"))).toStartWith("c.json: pooled_metrics.vmaf");
    const twice = good();
    twice.frames[1].frameNum = 0;
    expect(errorOf(() => parseReportData(twice, "d.json"))).toBe("d.json: frames[1].frameNum: frame 0 appears twice (also frames[0])");
    expect(errorOf(() => parseReportData([1, 2], "e.json"))).toStartWith("e.json: (root): ");
  });
});
