import { describe, expect, test } from "bun:test";
import { goldenOutput, goldenPairs, goldenPath, goldenRun } from "@vq/core/golden";
import { renderReport } from "./html-report.ts";
import { parseReportData, type RunSettings } from "./report-data.ts";
import { readReportData } from "./report-file.ts";

const pairs = goldenPairs();
/** A golden run whose JSON has null (infinite) scores, and one without. */
const nullPair = pairs.find((p) => goldenOutput(goldenRun(p, "all"), false).frames.some((f) => Object.values(f.metrics).includes(null)))!;
const path = goldenPath(goldenRun(nullPair, "all").output);
const json = goldenOutput(goldenRun(nullPair, "all"), false);
const data = readReportData(path);
const html = renderReport(data, "vq test");

const count = (text: string, re: RegExp) => text.match(re)?.length ?? 0;
const section = (id: string) => html.slice(html.indexOf(`<section id="${id}">`), html.indexOf("</section>", html.indexOf(`<section id="${id}">`)));

describe("the report of a libvmaf JSON result", () => {
  test("title, summary and sections in reading order", () => {
    expect(html).toStartWith("<!doctype html>");
    expect(html).toContain(`<title>VMAF report: ${nullPair.pair}.all.json</title>`);
    expect(html).toMatch(/<p class="summary"><code>vmaf<\/code> mean <strong>[\d.]+<\/strong> · min <strong>[\d.]+<\/strong> \(frame \d+\)/);
    const order = ["vmaf", "worst", "features", "pooled", "settings"].map((id) => html.indexOf(`<section id="${id}">`));
    expect(order.every((at, i) => at > 0 && (i === 0 || at > order[i - 1]!))).toBe(true);
  });

  test("one line per key: vmaf in the main chart, each feature in its own", () => {
    expect(count(section("vmaf"), /<path class="series[^"]*" data-key="vmaf"/g)).toBe(1);
    const features = Object.keys(json.frames[0]!.metrics).filter((k) => !k.startsWith("vmaf"));
    expect(count(section("features"), /<figure /g)).toBe(features.length);
    for (const k of features) expect(section("features")).toContain(`<path class="series" data-key="${k}"`);
  });

  test("the worst frames: only those below the mean, lowest first, the minimum marked, one precision", () => {
    let listed = 0;
    for (const p of pairs) {
      const j = goldenOutput(goldenRun(p, "all"), false);
      const out = renderReport(readReportData(goldenPath(goldenRun(p, "all").output)), "vq test");
      const worst = out.slice(out.indexOf('<section id="worst">'), out.indexOf("</section>", out.indexOf('<section id="worst">')));
      const mean = j.pooled_metrics.vmaf!.mean as number;
      const below = j.frames.map((f) => ({ frameNum: f.frameNum, vmaf: f.metrics.vmaf as number })).filter((f) => f.vmaf < mean);
      below.sort((a, b) => a.vmaf - b.vmaf || a.frameNum - b.frameNum);
      const rows = [...worst.matchAll(/<tr( class="minimum")?><td class="num">\d+<\/td><td class="num frame">(\d+)( <span class="min-mark"[^>]*>minimum<\/span>)?<\/td><td class="num">([^<]+)<\/td><td class="num">([^<]+)<\/td>/g)];
      expect(rows.map((r) => [Number(r[2]), r[4], r[5]]), p.pair).toEqual(below.slice(0, 10).map((b) => [b.frameNum, b.vmaf.toFixed(3), (b.vmaf - mean).toFixed(3)]));
      const min = Math.min(...j.frames.map((f) => f.metrics.vmaf as number));
      expect(rows.filter((r) => r[3]).map((r) => Number(r[2])), p.pair).toEqual(below.filter((b) => b.vmaf === min).slice(0, 10).map((b) => b.frameNum));
      expect(rows.every((r) => Boolean(r[1]) === Boolean(r[3]))).toBe(true);
      if (!below.length) expect(worst).toContain("No frame is below the <code>vmaf</code> mean");
      listed += rows.length;
    }
    expect(listed).toBeGreaterThan(pairs.length);
  });

  test("the pooled table has every pooled key with the JSON's numbers; null shows as null", () => {
    for (const [key, p] of Object.entries(json.pooled_metrics)) {
      const row = section("pooled").match(new RegExp(`<tr><td class="key">${key}</td>(.*?)</tr>`))?.[1];
      expect(row).toBeDefined();
      const cells = [...row!.matchAll(/<td class="num[^"]*"[^>]*>([^<]+)<\/td>/g)].map((m) => m[1]);
      expect(cells).toEqual(["min", "max", "mean", "harmonic_mean"].map((m) => String(p[m])));
    }
  });

  test("null scores are gaps, marked and explained", () => {
    const key = Object.keys(json.frames[0]!.metrics).find((k) => json.frames.some((f) => f.metrics[k] === null))!;
    const nulls = json.frames.filter((f) => f.metrics[key] === null).length;
    const runs = json.frames.filter((f, i) => f.metrics[key] === null && json.frames[i - 1]?.metrics[key] !== null).length;
    expect(count(html, new RegExp(`<rect class="null-mark" data-key="${key}"`, "g"))).toBe(runs);
    expect(html).toContain(`<code>${key}</code> is null (infinite, e.g. identical frames) on ${nulls} of ${json.frames.length} frames`);
  });

  test("settings: what the JSON carries", () => {
    const s = section("settings");
    expect(s).toContain(`<td>version</td><td>${json.version}</td>`);
    expect(s).toContain(`<td>frames</td><td>${json.frames.length} (frame 0 to ${json.frames.length - 1})</td>`);
    expect(s).toContain("<td>model score keys</td><td>vmaf</td>");
  });

  test("self-contained: nothing is loaded from anywhere", () => {
    const withoutSvgNamespace = html.replaceAll('xmlns="http://www.w3.org/2000/svg"', "");
    expect(withoutSvgNamespace).not.toMatch(/https?:\/\/|<link|<iframe|@import|url\(/i);
    // pictures only inline (thumbnails are data: URIs)
    expect(withoutSvgNamespace).not.toMatch(/\ssrc="(?!data:image\/png;base64,)/i);
  });
});

describe("the report of other results", () => {
  test("a bootstrap model: its keys in the main chart, members drawn thin, the interval a band", () => {
    const d = readReportData(goldenPath(goldenRun(pairs[0]!, "vmaf_b_v0.6.3").output));
    const out = renderReport(d, "vq test");
    const interval = ["vmaf_ci_p95_lo", "vmaf_ci_p95_hi"];
    for (const k of d.modelKeys.filter((k) => !interval.includes(k))) expect(out).toMatch(new RegExp(`<path class="series( minor)?" data-key="${k}"`));
    for (const k of interval) expect(out).not.toContain(`<path class="series" data-key="${k}"`);
    expect(out).toContain('<path class="series minor" data-key="vmaf_0001"');
    // one closed outline over every frame (no nulls): along the top (hi), back along the bottom (lo)
    const band = out.match(/<path class="band" data-key="vmaf 95% CI" fill="#[0-9a-f]+" d="([^"]+)">/)?.[1];
    expect(band).toBeDefined();
    expect(band!.match(/[ML]/g)!.length).toBe(2 * d.frameNums.length);
    expect(band!.endsWith("Z")).toBe(true);
    expect(out).toContain('<input type="checkbox" checked data-key="vmaf 95% CI">');
  });

  test("features only (-n): no VMAF chart, the first key ranks the worst frames", () => {
    const d = parseReportData({ version: "3.2.0", fps: 5, frames: [0, 1, 2].map((i) => ({ frameNum: i, metrics: { psnr_y: 30 + ((i * 7) % 3), psnr_cb: 40 } })), pooled_metrics: {} }, "features.json");
    const out = renderReport(d, "vq test");
    expect(out).not.toContain('<section id="vmaf">');
    expect(out).toContain("Worst frames (lowest <code>psnr_y</code>)");
    expect(out).toContain('<nav><a href="#worst">');
  });

  test("every string from the file or the command line is escaped", () => {
    const evil = `<img src=x onerror="alert(1)">`;
    const run: RunSettings = {
      reference: `/v/${evil}.y4m`,
      distorted: "/v/</script>.y4m",
      models: [evil],
      noPrediction: false,
      features: [evil],
      backendRequested: "auto",
      backendUsed: "cpu",
      width: 8,
      height: 8,
      threads: 1,
      subsample: 1,
      skipRef: 0,
      skipDist: 0,
      scale: false,
      commandLine: `vq -r '${evil}'`,
    };
    const d = parseReportData({ version: evil, fps: 1, frames: [{ frameNum: 0, metrics: { [evil]: 1, [`vmaf${evil}`]: 2 } }], pooled_metrics: { [evil]: { min: 1, max: 1, mean: 1, harmonic_mean: 1 } } }, evil, run);
    const out = renderReport(d, evil);
    expect(out).not.toContain("<img");
    expect(out).not.toContain("</script>.y4m");
    expect(count(out, /<script/g)).toBe(2);
    expect(out).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
  });
});
