import { basename } from "node:path";
import { VqError } from "@vq/core";
import { escapeHtml as h, jsonForScript } from "./html-escape.ts";
import { formatBitrate } from "./rate-quality.ts";
import { confidenceInterval, type ReportData } from "./report-data.ts";
import { bandFor, isBootstrapMember, page, PALETTE, pooledTable, settingsTable, short, worstTable } from "./report-sections.ts";
import type { RunInputs } from "./run-inputs.ts";
import { renderPlot, type PlotBand, type PlotSeries } from "./svg-plot.ts";
import { framesBelowMean } from "./worst-frames.ts";
import { cdfPoints, renderXyPlot, type XySeries } from "./xy-plot.ts";

/** Each run's name on the page: the distorted file when known, else the result file; repeats numbered. */
export function runLabels(runs: readonly ReportData[]): string[] {
  const names = runs.map((r) => basename(r.run?.distorted ?? r.source));
  return names.map((n, i) => (names.filter((m) => m === n).length > 1 ? `${n} (${i + 1})` : n));
}

/** The score the runs are compared on: vmaf when every run has it, else the first model key (else any key) they all share. */
export function comparedKey(runs: readonly ReportData[]): string {
  const shared = (k: string) => runs.every((r) => r.keys.includes(k));
  const first = runs[0]!;
  const key = ["vmaf", ...first.modelKeys, ...first.keys].find(shared);
  if (!key) throw new VqError(`${runs.map((r) => r.source).join(", ")}: no score key in common to compare`);
  return key;
}

function runsTable(runs: readonly ReportData[], labels: readonly string[], key: string, inputs: readonly (RunInputs | undefined)[]): string {
  const anyRate = inputs.some((i) => i?.bitsPerSecond !== undefined);
  const rows = runs.map((r, i) => {
    const p = r.pooled[key];
    const worst = framesBelowMean(r, key, 1);
    const min = worst.frames[0];
    const rate = inputs[i]?.bitsPerSecond;
    return `<tr><td><span class="swatch" style="background:${PALETTE[i % PALETTE.length]}"></span> <a href="#run-${i + 1}">${h(labels[i]!)}</a></td><td class="num">${r.frameNums.length}</td><td class="num">${h(short(p?.mean))}</td><td class="num">${h(short(p?.min ?? min?.value))}${min ? ` <span class="sub">(frame ${min.frameNum})</span>` : ""}</td><td class="num">${h(short(p?.harmonic_mean))}</td><td class="num">${worst.belowCount}</td>${anyRate ? `<td class="num">${rate === undefined ? "—" : h(formatBitrate(rate))}</td>` : ""}</tr>`;
  });
  return `<section id="runs">
<h2>Runs (<code>${h(key)}</code>, pooled)</h2>
<table class="runs"><thead><tr><th>run</th><th class="num">frames</th><th class="num">mean</th><th class="num">min</th><th class="num">harmonic mean</th><th class="num">frames below mean</th>${anyRate ? `<th class="num">bitrate</th>` : ""}</tr></thead>
<tbody>${rows.join("\n")}</tbody></table>
</section>`;
}

function overlayChart(runs: readonly ReportData[], labels: readonly string[], key: string): string {
  const colour = (i: number) => PALETTE[i % PALETTE.length]!;
  const series: PlotSeries[] = runs.map((r, i) => ({ key: labels[i]!, values: r.values[key]!, color: colour(i), frameNums: r.frameNums }));
  const bands = runs.map((r, i) => bandFor(r, key, labels[i]!, colour(i), true)).filter((b): b is PlotBand => b !== undefined);
  const frames = [...new Set(runs.flatMap((r) => r.frameNums))].sort((a, b) => a - b);
  const svg = renderPlot({ frameNums: frames, series, bands, width: 1200, height: 400, label: `${key} per frame, ${runs.length} runs` });
  const legend = series.map((s) => `<label><input type="checkbox" checked data-key="${h(s.key)}"><span class="swatch" style="background:${s.color}"></span>${h(s.key)}</label>`).join("");
  // The readout's values on the shared frame axis (null where a run lacks the frame).
  const embedded = {
    frames,
    series: Object.fromEntries(
      runs.map((r, i) => {
        const at = new Map(r.frameNums.map((f, j) => [f, r.values[key]![j]]));
        return [labels[i]!, frames.map((f) => at.get(f) ?? null)];
      }),
    ),
  };
  const levels = [...new Set(runs.map((r) => confidenceInterval(r, key)?.level).filter(Boolean))];
  return `<section id="vmaf">
<h2><code>${h(key)}</code> per frame</h2>
<div class="legend">${legend}</div>
<div class="chart" id="vmaf-chart">${svg}</div>
<div class="readout" id="readout"></div>
<p class="sub">${bands.length ? `Shaded: each bootstrap run's ${levels.join("/")}% confidence interval. ` : ""}Hover for each run's score at a frame; click a legend entry to hide a run.</p>
<script type="application/json" id="report-data">${jsonForScript(embedded)}</script>
</section>`;
}

function distributionChart(runs: readonly ReportData[], labels: readonly string[], key: string): string {
  const series: XySeries[] = runs.map((r, i) => ({ key: labels[i]!, points: cdfPoints(r.values[key]!.filter((v): v is number => typeof v === "number")), color: PALETTE[i % PALETTE.length]!, step: true }));
  return `<section id="distribution">
<h2>Distribution of frame scores</h2>
<div class="chart">${renderXyPlot({ series, width: 1200, height: 320, label: `share of frames at or below each ${key} score`, xTitle: key, yTitle: "share of frames ≤ x", yRange: [0, 1] })}</div>
<p class="sub">Each line: the share of a run's frames scoring at or below x (a run further right is better; its left end is its worst frame).</p>
</section>`;
}

function rateChart(runs: readonly ReportData[], labels: readonly string[], key: string, inputs: readonly (RunInputs | undefined)[]): string {
  const points = runs
    .map((r, i) => ({ i, rate: inputs[i]?.bitsPerSecond, mean: r.pooled[key]?.mean }))
    .filter((p): p is { i: number; rate: number; mean: number } => p.rate !== undefined && typeof p.mean === "number")
    .sort((a, b) => a.rate - b.rate);
  const missing = runs.map((_, i) => i).filter((i) => !points.some((p) => p.i === i));
  const why = missing.map((i) => {
    const notes = inputs[i]?.notes ?? [];
    const reason = !runs[i]!.run ? "its input files are not known (a JSON result alone does not name them; score with --report to have them)" : notes.join("; ") || "no bitrate";
    return `<li>${h(labels[i]!)}: ${h(reason)}</li>`;
  });
  if (points.length < 2) {
    return `<section id="rate">
<h2>Rate and quality</h2>
<p class="note">No rate–quality curve: it needs the bitrate of at least two runs.</p>
${why.length ? `<ul class="note">${why.join("")}</ul>` : ""}
</section>`;
  }
  const kbps = (bits: number) => bits / 1000;
  const series: XySeries[] = [
    { key: "ladder", points: points.map((p) => [kbps(p.rate), p.mean] as const), color: "#6e7781" },
    ...points.map((p) => ({ key: labels[p.i]!, points: [[kbps(p.rate), p.mean] as const], color: PALETTE[p.i % PALETTE.length]!, markers: [`${labels[p.i]}: ${formatBitrate(p.rate)}, ${key} mean ${short(p.mean)}`], labels: [labels[p.i]!] })),
  ];
  return `<section id="rate">
<h2>Rate and quality</h2>
<div class="chart">${renderXyPlot({ series, width: 1200, height: 360, label: `${key} mean against bitrate`, xTitle: "bitrate (kbit/s)", yTitle: `${key} mean` })}</div>
<p class="sub">Bitrate: the distorted file's size (container included) over its duration, frames / frame rate.</p>
${why.length ? `<p class="note">Not on the curve:</p><ul class="note">${why.join("")}</ul>` : ""}
</section>`;
}

function runSection(data: ReportData, label: string, i: number, key: string, inputs: RunInputs | undefined): string {
  const id = `run-${i + 1}`;
  const facts = [`${data.frameNums.length} frames`];
  if (data.run) facts.push(`${data.run.width}×${data.run.height}`, `backend ${data.run.backendUsed}`);
  if (inputs?.bitsPerSecond !== undefined) facts.push(formatBitrate(inputs.bitsPerSecond));
  facts.push(`result file: ${basename(data.source)}`);
  // The models' scores here (bootstrap members only under "every pooled score").
  const scores = (data.modelKeys.length ? data.modelKeys : data.keys).filter((k) => !isBootstrapMember(k));
  return `<section id="${id}" class="run">
<h2><span class="swatch" style="background:${PALETTE[i % PALETTE.length]}"></span> ${h(label)}</h2>
<p class="sub">${facts.map(h).join(" · ")}</p>
<h3>Worst frames (lowest <code>${h(key)}</code>)</h3>
${worstTable(data, key, id, inputs)}
<h3>Pooled scores</h3>
${pooledTable(data, Object.keys(data.pooled).filter((k) => scores.includes(k)))}
<details><summary>Every pooled score and the settings</summary>
${pooledTable(data)}
${settingsTable(data, inputs)}
</details>
</section>`;
}

/**
 * One self-contained page comparing several runs (a ladder, or results given to
 * `vq report`): the compared score per frame of every run on one chart (bootstrap
 * intervals as bands), the distribution of frame scores, bitrate against quality where
 * the inputs are known, and per run its worst frames and pooled scores. `inputs[i]`
 * (inspectRunInputs) is what run i's files told, when readable.
 */
export function renderComparisonReport(runs: readonly ReportData[], generator: string, inputs: readonly (RunInputs | undefined)[] = []): string {
  if (runs.length < 2) throw new Error("renderComparisonReport needs at least two runs (renderReport draws one)");
  const key = comparedKey(runs);
  const labels = runLabels(runs);
  const references = [...new Set(runs.map((r) => r.run?.reference).filter(Boolean))] as string[];
  const header = `<p class="summary">${runs.length} runs compared on <code>${h(key)}</code>${references.length === 1 ? ` against <code>${h(basename(references[0]!))}</code>` : ""}</p>
<p class="sub">${labels.map(h).join(" · ")}</p>`;
  const sections = [runsTable(runs, labels, key, inputs), overlayChart(runs, labels, key), distributionChart(runs, labels, key), rateChart(runs, labels, key, inputs), ...runs.map((r, i) => runSection(r, labels[i]!, i, key, inputs[i]))];
  const nav: [string, string][] = [
    ["runs", "runs"],
    ["vmaf", "per frame"],
    ["distribution", "distribution"],
    ["rate", "rate–quality"],
    ...labels.map((l, i) => [`run-${i + 1}`, l] as [string, string]),
  ];
  return page({ title: `VMAF comparison: ${labels.join(", ")}`, generator, header, nav, sections, sources: runs.map((r) => r.run?.distorted ?? r.source) });
}
