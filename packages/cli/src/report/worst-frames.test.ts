import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { goldenPath } from "@vq/core/golden";
import { main } from "../main.ts";
import { parseReportData, type ReportData } from "./report-data.ts";
import { readReportData } from "./report-file.ts";
import { fixed, framesBelowMean, WORST_FRAMES_DECIMALS } from "./worst-frames.ts";

// The rule on results vq writes for golden pairs (CPU, a few frames), recomputed here from the JSON.
const dir = mkdtempSync(join(tmpdir(), "vq-worst-frames-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function vqJson(name: string, pair: string, args: string[]): Promise<string> {
  const out = join(dir, `${name}.json`);
  const ref = goldenPath(`vectors/${pair.replace(/\.[^.]+$/, "")}.ref.y4m`);
  const code = await main(["-r", ref, "-d", goldenPath(`vectors/${pair}.y4m`), "--backend", "cpu", "--json", "-o", out, "-q", ...args], { stdout: () => {}, stderr: () => {}, stderrIsTty: false });
  expect(code).toBe(0);
  return out;
}

/** What the rule says, straight from the file: frames under the pooled mean, lowest first (ties: by frame). */
function expected(path: string, key: string) {
  const j = JSON.parse(readFileSync(path, "utf8")) as { frames: { frameNum: number; metrics: Record<string, number> }[]; pooled_metrics: Record<string, { mean: number }> };
  const mean = j.pooled_metrics[key]!.mean;
  const all = j.frames.map((f) => ({ frameNum: f.frameNum, value: f.metrics[key]! }));
  const min = Math.min(...all.map((f) => f.value));
  const below = all.filter((f) => f.value < mean).sort((a, b) => a.value - b.value || a.frameNum - b.frameNum);
  return { mean, min, below };
}

function check(data: ReportData, path: string, key: string, n: number) {
  const e = expected(path, key);
  const w = framesBelowMean(data, key, n);
  expect(w.mean).toBe(e.mean);
  expect(w.belowCount).toBe(e.below.length);
  expect(w.frames.map((f) => [f.frameNum, f.value])).toEqual(e.below.slice(0, n).map((f) => [f.frameNum, f.value]));
  expect(w.frames.every((f) => f.value < e.mean && f.belowMean === f.value - e.mean)).toBe(true);
  expect(w.frames.filter((f) => f.isMinimum).map((f) => f.value)).toEqual(e.below.filter((f) => f.value === e.min).slice(0, n).map((f) => f.value));
  return w;
}

describe("the worst frames: only those below the run's mean", () => {
  test("vmaf of an x264 encode: some frames below the mean, the lowest marked as the minimum", async () => {
    const path = await vqJson("crf45", "nat_576x324.x264crf45", ["--frame_cnt", "10"]);
    const data = readReportData(path);
    const w = check(data, path, "vmaf", 10);
    expect(w.frames.length).toBeGreaterThan(0);
    expect(w.frames.length).toBeLessThan(data.frameNums.length);
    expect(w.frames[0]!.isMinimum).toBe(true);
    // a short table keeps the lowest
    check(data, path, "vmaf", 2);
  }, 120_000);

  test("a feature (-n, psnr_y) ranks the same way", async () => {
    const path = await vqJson("psnr", "odd_321x241_444.noise", ["-n", "--feature", "psnr"]);
    check(readReportData(path), path, "psnr_y", 10);
  }, 60_000);

  test("without pooled scores in the file: the mean of the frames", async () => {
    const path = await vqJson("no-pool", "odd_321x241_444.x264crf32", ["-n", "--feature", "psnr"]);
    const json = JSON.parse(readFileSync(path, "utf8"));
    const values: number[] = json.frames.map((f: { metrics: Record<string, number> }) => f.metrics.psnr_y);
    json.pooled_metrics = {};
    const w = framesBelowMean(parseReportData(json, "no-pool.json"), "psnr_y", 10);
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    expect(w.mean).toBe(mean);
    expect(w.frames.map((f) => f.value)).toEqual(values.filter((v) => v < mean).sort((a, b) => a - b));
  }, 60_000);

  test("one precision for every number", () => {
    expect(WORST_FRAMES_DECIMALS).toBe(3);
    for (const v of [92.302845, -6.7351, 100, 0.0004, 3]) expect(fixed(v)).toMatch(/^-?\d+\.\d{3}$/);
  });
});
