import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { goldenPairs, goldenPath } from "@vq/core/golden";
import { numpyStatistics } from "@vq/core/testing";
import { main } from "./main.ts";

const dir = mkdtempSync(join(tmpdir(), "vq-pool-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function vq(args: string[]) {
  let stderr = "";
  const code = await main(args, { stdout: () => {}, stderr: (t) => void (stderr += t), stderrIsTty: false });
  return { code, stderr };
}

const pair = goldenPairs().find((p) => p.pair === "nat_576x324.x264crf30")!;
// Subsampled: the statistics cover the frames written, as libvmaf pools (0, 2, 4, ...).
const RUN = ["-r", goldenPath(pair.reference), "-d", goldenPath(pair.distorted), "--backend", "cpu", "--frame_cnt", "9", "--subsample", "2", "--feature", "psnr", "--precision", "max", "--pool", "extended"];
const EXTENDED = ["median", "stdev", "p1", "p5", "p95"] as const;

async function written(format: string): Promise<string> {
  const out = join(dir, `scores.${format}`);
  const r = await vq([...RUN, `--${format}`, "-o", out]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  return readFileSync(out, "utf8");
}

/** The file's extended statistics equal numpy's, recomputed from its per-frame values. */
function expectRecomputed(frames: Record<string, number>[], pooled: Record<string, Record<string, number>>) {
  expect(frames).toHaveLength(5);
  expect(Object.keys(pooled)).toContain("vmaf");
  expect(Object.keys(pooled)).toContain("psnr_y");
  for (const [name, stats] of Object.entries(pooled)) {
    const values = frames.map((f) => f[name]!);
    const numpy = numpyStatistics(values);
    for (const s of EXTENDED) {
      if (s === "stdev") expect(Math.abs(stats.stdev! - numpy.stdev), name).toBeLessThanOrEqual(1e-12 * Math.max(1, Math.abs(stats.mean!)));
      else expect(stats[s], `${name}.${s}`).toBe(numpy[s]);
    }
    expect(stats.min).toBe(Math.min(...values));
    expect(stats.max).toBe(Math.max(...values));
  }
}

describe("--pool extended", () => {
  test("JSON: median, stdev, p1, p5, p95 after libvmaf's four, recomputed from the frames written", async () => {
    const json = JSON.parse(await written("json"));
    expect(json.frames.map((f: { frameNum: number }) => f.frameNum)).toEqual([0, 2, 4, 6, 8]);
    expect(Object.keys(json.pooled_metrics.vmaf)).toEqual(["min", "max", "mean", "harmonic_mean", ...EXTENDED]);
    expectRecomputed(
      json.frames.map((f: { metrics: Record<string, number> }) => f.metrics),
      json.pooled_metrics,
    );
  });

  test("CSV: one row per statistic after the frames, its name in the Frame column", async () => {
    const [header, ...rows] = (await written("csv")).trimEnd().split("\n").map((l) => l.split(",").slice(0, -1));
    const names = header!.slice(1);
    const record = (row: string[]) => Object.fromEntries(names.map((n, k) => [n, Number(row[k + 1])]));
    const frames = rows.filter((r) => /^\d+$/.test(r[0]!));
    const stats = rows.slice(frames.length);
    expect(frames.map((r) => r[0])).toEqual(["0", "2", "4", "6", "8"]);
    expect(stats.map((r) => r[0])).toEqual(["min", "max", "mean", "harmonic_mean", ...EXTENDED]);
    const pooled = Object.fromEntries(names.map((n) => [n, Object.fromEntries(stats.map((r) => [r[0]!, record(r)[n]!]))]));
    expectRecomputed(frames.map(record), pooled);
  });

  test("XML: the statistics as attributes of each pooled metric", async () => {
    const xml = await written("xml");
    const attributes = (tag: string) => Object.fromEntries([...tag.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
    const numbers = (a: Record<string, string>) => Object.fromEntries(Object.entries(a).map(([k, v]) => [k, Number(v)]));
    const frames = [...xml.matchAll(/<frame (.*?)\/>/g)].map((m) => numbers(attributes(m[1]!)));
    const pooled = Object.fromEntries(
      [...xml.matchAll(/<metric (.*?)\/>/g)].map((m) => {
        const { name, ...stats } = attributes(m[1]!);
        expect(Object.keys(stats)).toEqual(["min", "max", "mean", "harmonic_mean", ...EXTENDED]);
        return [name!, numbers(stats)];
      }),
    );
    expectRecomputed(frames, pooled);
  });

  test("the HTML report reads an extended result", async () => {
    const report = join(dir, "report.html");
    const r = await vq([...RUN, "--json", "-o", join(dir, "r.json"), "--report", report]);
    expect(r.code).toBe(0);
    expect(readFileSync(report, "utf8")).toContain("<html");
  });
});
