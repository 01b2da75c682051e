import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { isVqError } from "@vq/core";
import { encodeLadder, RENDITIONS, scoreLadder, type ScoredLadder } from "../testing/report-ladder.ts";
import { main } from "../main.ts";
import { comparedKey, renderComparisonReport, runLabels } from "./comparison-report.ts";
import { parseReportData, type ReportData } from "./report-data.ts";
import { readReportData } from "./report-file.ts";
import { inspectRunInputs, type RunInputs } from "./run-inputs.ts";
import { scoringReport, scoringRunSettings } from "./scoring-report.ts";
import { framesBelowMean } from "./worst-frames.ts";

// A three-rendition ladder encoded from a golden reference and scored by vq (CPU, bootstrap model).
const dir = mkdtempSync(join(tmpdir(), "vq-comparison-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let ladder: ScoredLadder;
let runs: ReportData[];
let inputs: (RunInputs | undefined)[];
let html: string;
beforeAll(async () => {
  ladder = await scoreLadder(dir, encodeLadder(dir));
  runs = ladder.runs.map((r) => parseReportData(JSON.parse(r.json), r.source, scoringRunSettings(ladder.settings, ladder.argv, r)));
  inputs = await Promise.all(runs.map((r) => inspectRunInputs(r, framesBelowMean(r, "vmaf", 3).frames.map((f) => f.frameNum))));
  html = renderComparisonReport(runs, "vq test", inputs);
}, 180_000);

const count = (text: string, re: RegExp) => text.match(re)?.length ?? 0;
const section = (page: string, id: string) => page.slice(page.indexOf(`<section id="${id}"`), page.indexOf("</section>", page.indexOf(`<section id="${id}"`)));
const labels = RENDITIONS.map((r) => `${r.name}.mp4`);

describe("the comparison report of a ladder", () => {
  test("one row per run with its pooled vmaf and its bitrate", () => {
    const rows = [...section(html, "runs").matchAll(/<tr><td>.*?<a href="#run-(\d)">([^<]+)<\/a><\/td><td class="num">(\d+)<\/td><td class="num">([^<]+)<\/td>.*?<td class="num">([^<]+)<\/td><\/tr>/g)];
    expect(rows.map((r) => r[2])).toEqual(labels);
    rows.forEach((r, i) => {
      const json = JSON.parse(ladder.runs[i]!.json);
      expect(Number(r[3])).toBe(json.frames.length);
      expect(Number(r[4])).toBeCloseTo(json.pooled_metrics.vmaf.mean, 2);
      expect(r[5]).toMatch(/ (k|M)bit\/s$/);
    });
  });

  test("vmaf per frame: every run on one chart, each with its bootstrap interval as a band", () => {
    const s = section(html, "vmaf");
    for (const [i, l] of labels.entries()) {
      const d = s.match(new RegExp(`<path class="series" data-key="${l}" stroke="#[0-9a-f]+" d="([^"]+)"`))?.[1];
      expect(d?.match(/[ML]/g)?.length).toBe(runs[i]!.frameNums.length);
      expect(s).toMatch(new RegExp(`<path class="band" data-key="${l}" fill="#[0-9a-f]+" d="M[^"]+Z"`));
      expect(s).toContain(`<input type="checkbox" checked data-key="${l}">`);
    }
    const embedded = JSON.parse(s.match(/<script type="application\/json" id="report-data">([^<]+)<\/script>/)![1]!);
    expect(embedded.series[labels[0]!]).toEqual(runs[0]!.values.vmaf);
  });

  test("the distribution: one staircase per run from its lowest score to all frames", () => {
    const s = section(html, "distribution");
    for (const l of labels) expect(s).toMatch(new RegExp(`<path class="series" data-key="${l}" stroke="#[0-9a-f]+" d="M[^"]+"`));
  });

  test("rate and quality: a point per run at size / duration and its vmaf mean, joined by bitrate", () => {
    const s = section(html, "rate");
    expect(s).toContain('<path class="series" data-key="ladder"');
    expect(count(s, /<g class="markers"/g)).toBe(3);
    for (const [i, r] of ladder.runs.entries()) {
      const bits = (statSync(r.distorted).size * 8 * 24) / runs[i]!.frameNums.length;
      expect(inputs[i]!.bitsPerSecond).toBe(bits);
      expect(s).toContain(`<text class="point-label"`);
      expect(s).toContain(`>${labels[i]}</text>`);
    }
  });

  test("per run: the frames below its mean with the reference beside the distorted, its pooled scores, its settings", () => {
    for (const [i, r] of runs.entries()) {
      const s = section(html, `run-${i + 1}`);
      const below = framesBelowMean(r, "vmaf", 10);
      expect(count(s, /<tr( class="minimum")?><td class="num">\d+<\/td><td class="num frame">/g)).toBe(below.frames.length);
      expect(count(s, /<img alt="reference, frame \d+" src="data:image\/png;base64,/g)).toBe(Math.min(3, below.frames.length));
      expect(count(s, /<img alt="distorted, frame \d+" src="data:image\/png;base64,/g)).toBe(Math.min(3, below.frames.length));
      expect(count(s, /class="min-mark"/g)).toBeGreaterThanOrEqual(1);
      expect(s).toContain(`<td>distorted</td><td>${ladder.runs[i]!.distorted}</td>`);
      expect(s).toContain('<td class="key">vmaf_ci_p95_lo</td>');
    }
  });

  test("scoringReport (the ladder's --report) writes this page; one distorted input the single-run page", async () => {
    const page = await scoringReport(ladder.runs, ladder.settings, ladder.argv, "vq test");
    expect(page.replace(/<meta name="generator"[^>]*>/, "")).toBe(html.replace(/<meta name="generator"[^>]*>/, ""));
    const single = await scoringReport(ladder.runs.slice(0, 1), ladder.settings, ladder.argv, "vq test");
    expect(single).toContain(`<title>VMAF report: nat_576x324.ref.y4m vs ${labels[0]}</title>`);
    expect(single).toContain('<img alt="reference, frame');
    expect(single).toMatch(/<td>distorted file<\/td><td>\d+ bytes, 8 frames at 24 fps: [\d.]+ (k|M)bit\/s<\/td>/);
  }, 60_000);
});

describe("vq report A.json B.json ...", () => {
  test("compares results written earlier: no input files known, so no pictures and no rate curve, and the page says why", async () => {
    const out = join(dir, "compare.html");
    let stderr = "";
    const code = await main(["report", ...ladder.jsons, "-o", out], { stdout: () => {}, stderr: (t) => void (stderr += t), stderrIsTty: false });
    expect([code, stderr]).toEqual([0, ""]);
    const page = readFileSync(out, "utf8");
    expect(page).toContain(`<title>VMAF comparison: ${ladder.jsons.map((j) => basename(j)).join(", ")}</title>`);
    expect(page).not.toContain("<img");
    expect(section(page, "rate")).toContain("No rate–quality curve");
    expect(section(page, "rate")).toContain("its input files are not known");
    for (const j of ladder.jsons) expect(page).toContain(`data-key="${basename(j)}"`);
  }, 60_000);
});

describe("vq -r REF -d A -d B --report (a ladder in one run)", () => {
  test("writes one comparison page of the inputs, beside each input's own output", async () => {
    const page = join(dir, "one-run-ladder.html");
    const distorted = ladder.runs.slice(0, 2).map((r) => r.distorted);
    const args = ["-r", ladder.settings.reference!, ...distorted.flatMap((d) => ["-d", d]), "--scale", "--model", "version=vmaf_b_v0.6.3", "--backend", "cpu", "--json", "-o", join(dir, "ladder-{name}.json"), "--report", page, "-q"];
    let stderr = "";
    expect(await main(args, { stdout: () => {}, stderr: (t) => void (stderr += t), stderrIsTty: false })).toBe(0);
    expect(stderr).toBe("");
    const out = readFileSync(page, "utf8");
    expect(out).toContain(`<title>VMAF comparison: ${labels.slice(0, 2).join(", ")}</title>`);
    expect(count(section(out, "rate"), /<g class="markers"/g)).toBe(2);
    expect(count(out, /<img alt="reference, frame \d+" src="data:image\/png;base64,/g)).toBeGreaterThan(0);
    for (const name of RENDITIONS.slice(0, 2).map((r) => r.name)) expect(out).toContain(`<td>result file</td><td>${join(dir, `ladder-${name}.json`)}</td>`);
    // the scores on the page are those of the files written
    for (const [i, name] of RENDITIONS.slice(0, 2).map((r) => r.name).entries()) {
      const json = JSON.parse(readFileSync(join(dir, `ladder-${name}.json`), "utf8"));
      const embedded = JSON.parse(section(out, "vmaf").match(/<script type="application\/json" id="report-data">([^<]+)<\/script>/)![1]!);
      expect(embedded.series[labels[i]!]).toEqual(json.frames.map((f: { metrics: { vmaf: number } }) => f.metrics.vmaf));
    }
  }, 120_000);
});

describe("which runs compare, and their names", () => {
  test("the key all runs share; none in common is one error naming the files", async () => {
    expect(comparedKey(runs)).toBe("vmaf");
    const psnr = join(dir, "psnr.json");
    const args = ["-r", ladder.settings.reference!, "-d", ladder.runs[0]!.distorted, "--scale", "-n", "--feature", "psnr", "--backend", "cpu", "--json", "-o", psnr, "-q"];
    expect(await main(args, { stdout: () => {}, stderr: () => {}, stderrIsTty: false })).toBe(0);
    const features = readReportData(psnr);
    expect(comparedKey([features, features])).toBe("psnr_y");
    try {
      comparedKey([runs[0]!, features]);
      throw new Error("expected an error");
    } catch (e) {
      expect(isVqError(e)).toBe(true);
      expect((e as Error).message).toBe(`${runs[0]!.source}, ${psnr}: no score key in common to compare`);
    }
  }, 60_000);

  test("labels: the distorted file's name, else the result file's; repeats numbered", () => {
    expect(runLabels(runs)).toEqual(labels);
    const bare = runs.map((r) => ({ ...r, run: undefined }));
    expect(runLabels([bare[0]!, bare[0]!])).toEqual([`${basename(bare[0]!.source)} (1)`, `${basename(bare[0]!.source)} (2)`]);
  });
});
