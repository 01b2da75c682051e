import { basename } from "node:path";
import { escapeHtml as h, jsonForScript } from "./html-escape.ts";
import { REPORT_CSS, REPORT_SCRIPT } from "./report-assets.ts";
import { nullCount, primaryKey, worstFrames, type ReportData } from "./report-data.ts";
import { renderPlot, type PlotSeries } from "./svg-plot.ts";

/** Colour-blind-friendly (Okabe–Ito, then Tableau) so neighbouring series stay apart. */
const PALETTE = ["#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#7f3c8d", "#3a7d44", "#b0413e", "#4e79a7", "#f28e2b", "#59a14f"];
const WORST_FRAMES = 10;

/** Bootstrap models' member scores (vmaf_0001 ...): many, similar, drawn thin. */
const isBootstrapMember = (key: string) => /^vmaf_\d{4}$/.test(key);

/** Numbers as the JSON has them (the shortest text that reads back the same double). */
function num(v: number | null | undefined): string {
  if (v === null) return `<td class="num null" title="null in the JSON: infinite or undefined">null</td>`;
  if (v === undefined) return `<td class="num">—</td>`;
  return `<td class="num">${h(String(v))}</td>`;
}

/** A headline number, rounded for reading: `digits` significant digits. */
function short(v: number | null | undefined, digits = 5): string {
  if (v === null) return "null (infinite)";
  if (v === undefined) return "—";
  return String(Number(v.toPrecision(digits)));
}

function nullNote(data: ReportData, key: string): string {
  const n = nullCount(data, key);
  if (!n) return "";
  return `<p class="note"><code>${h(key)}</code> is null (infinite, e.g. identical frames) on ${n} of ${data.frameNums.length} frames: gaps in its line, marked at the top.</p>`;
}

function title(data: ReportData): string {
  return data.run ? `${basename(data.run.reference)} vs ${basename(data.run.distorted)}` : basename(data.source);
}

function summary(data: ReportData, key: string | undefined): string {
  const facts = [`${data.frameNums.length} frame${data.frameNums.length === 1 ? "" : "s"}`];
  if (data.run) facts.push(`${data.run.width}×${data.run.height}`, `backend ${data.run.backendUsed}`);
  facts.push(`version ${data.version}`);
  if (!key) return `<p class="summary">No scores in this file.</p>`;
  const p = data.pooled[key];
  const worst = worstFrames(data, key, 1)[0];
  const minAt = worst ? ` (frame ${worst.frameNum})` : "";
  return `<p class="summary"><code>${h(key)}</code> mean <strong>${h(short(p?.mean))}</strong> · min <strong>${h(short(p?.min ?? worst?.value))}</strong>${h(minAt)} · harmonic mean ${h(short(p?.harmonic_mean))}</p>
<p class="sub">${facts.map(h).join(" · ")}</p>`;
}

function seriesFor(data: ReportData, keys: readonly string[]): PlotSeries[] {
  let colour = 0;
  return keys.map((key) => ({ key, values: data.values[key]!, color: isBootstrapMember(key) ? "#8c959f" : PALETTE[colour++ % PALETTE.length]! }));
}

function modelChart(data: ReportData, key: string | undefined): string {
  if (!data.modelKeys.length) return "";
  // The ranking key first: its worst frames are circled on it.
  const keys = key && data.modelKeys.includes(key) ? [key, ...data.modelKeys.filter((k) => k !== key)] : data.modelKeys;
  const series = seriesFor(data, keys);
  // Circles stand out only while few: about one frame in ten, at most the table's ten.
  const circled = Math.min(WORST_FRAMES, Math.max(1, Math.floor(data.frameNums.length / 10)));
  const highlight = key ? worstFrames(data, key, circled).map((f) => f.index) : [];
  let svg = renderPlot({ frameNums: data.frameNums, series, width: 1200, height: 380, label: `${keys.join(", ")} per frame`, highlight });
  svg = svg.replace(/<path class="series" data-key="(vmaf_\d{4})"/g, '<path class="series minor" data-key="$1"');
  const legend = series
    .map((s) => `<label><input type="checkbox" checked data-key="${h(s.key)}"><span class="swatch" style="background:${s.color}"></span>${h(s.key)}</label>`)
    .join("");
  const embedded = { frames: data.frameNums, series: Object.fromEntries(keys.map((k) => [k, data.values[k]])) };
  return `<section id="vmaf">
<h2>VMAF per frame</h2>
<div class="legend">${legend}</div>
<div class="chart" id="vmaf-chart">${svg}</div>
<div class="readout" id="readout"></div>
${highlight.length ? `<p class="sub">Red circle${highlight.length === 1 ? "" : "s"}: the lowest <code>${h(key!)}</code> frame${highlight.length === 1 ? "" : "s"} (see the table below). Hover for each frame's scores; click a legend entry to hide its line.</p>` : ""}
${keys.map((k) => nullNote(data, k)).join("")}
<script type="application/json" id="report-data">${jsonForScript(embedded)}</script>
</section>`;
}

function worstTable(data: ReportData, key: string | undefined): string {
  if (!key) return "";
  const worst = worstFrames(data, key, WORST_FRAMES);
  const others = data.modelKeys.filter((k) => k !== key && !isBootstrapMember(k)).slice(0, 5);
  const mean = data.pooled[key]?.mean;
  const rows = worst.map((f, rank) => {
    const delta = typeof mean === "number" ? `<td class="num">${h((f.value - mean).toFixed(3))}</td>` : `<td class="num">—</td>`;
    return `<tr><td class="num">${rank + 1}</td><td class="num">${f.frameNum}</td>${num(f.value)}${delta}${others.map((k) => num(data.values[k]![f.index])).join("")}</tr>`;
  });
  const skipped = nullCount(data, key);
  return `<section id="worst">
<h2>Worst frames (lowest <code>${h(key)}</code>)</h2>
<table class="worst-frames"><thead><tr><th class="num">#</th><th class="num">frame</th><th class="num">${h(key)}</th><th class="num">vs mean</th>${others.map((k) => `<th class="num">${h(k)}</th>`).join("")}</tr></thead>
<tbody>${rows.join("\n")}</tbody></table>
${skipped ? `<p class="note">${skipped} frame${skipped === 1 ? " is" : "s are"} null (infinite) for <code>${h(key)}</code> and not ranked.</p>` : ""}
</section>`;
}

function featureCharts(data: ReportData): string {
  if (!data.featureKeys.length) return "";
  const figures = data.featureKeys.map((key, i) => {
    const series: PlotSeries = { key, values: data.values[key]!, color: PALETTE[i % PALETTE.length]! };
    const mean = data.pooled[key]?.mean;
    return `<figure data-key="${h(key)}"><figcaption><span class="key">${h(key)}</span><span class="stat">mean ${h(short(mean, 8))}</span></figcaption>
${renderPlot({ frameNums: data.frameNums, series: [series], width: 440, height: 150, label: `${key} per frame` })}${nullNote(data, key)}</figure>`;
  });
  return `<section id="features">
<h2>Features per frame</h2>
<div class="features">${figures.join("\n")}</div>
</section>`;
}

function pooledTable(data: ReportData): string {
  const rows = Object.entries(data.pooled).map(([key, p]) =>
    p ? `<tr><td class="key">${h(key)}</td>${num(p.min)}${num(p.max)}${num(p.mean)}${num(p.harmonic_mean)}</tr>` : `<tr><td class="key">${h(key)}</td><td class="num" colspan="4">not pooled</td></tr>`,
  );
  const aggregate = Object.entries(data.aggregate);
  return `<section id="pooled">
<h2>Pooled scores</h2>
<table class="pooled"><thead><tr><th>key</th><th class="num">min</th><th class="num">max</th><th class="num">mean</th><th class="num">harmonic mean</th></tr></thead>
<tbody>${rows.join("\n")}</tbody></table>
${aggregate.length ? `<h3>Aggregate metrics</h3><table class="aggregate"><tbody>${aggregate.map(([k, v]) => `<tr><td class="key">${h(k)}</td>${num(v)}</tr>`).join("")}</tbody></table>` : ""}
</section>`;
}

function settingsTable(data: ReportData): string {
  const rows: [string, string][] = [];
  const run = data.run;
  if (run) {
    rows.push(["reference", run.reference], ["distorted", run.distorted], ["resolution", `${run.width}×${run.height}`]);
    rows.push(["models", run.noPrediction ? "none (-n)" : run.models.length ? run.models.join("  ") : "vmaf_v0.6.1 (default)"]);
    rows.push(["extra features", run.features.length ? run.features.join("  ") : "none (only the models' own)"]);
    rows.push(["backend", run.backendRequested === run.backendUsed ? run.backendUsed : `${run.backendUsed} (asked: ${run.backendRequested})`]);
    rows.push(["threads", String(run.threads)]);
    if (run.subsample > 1) rows.push(["subsample", String(run.subsample)]);
    if (run.frameCount !== undefined) rows.push(["frame_cnt", String(run.frameCount)]);
    if (run.skipRef || run.skipDist) rows.push(["frames skipped", `reference ${run.skipRef}, distorted ${run.skipDist}`]);
    if (run.scale) rows.push(["scale", "distorted scaled to the reference's size"]);
  }
  rows.push(["result file", data.source], ["version", data.version], ["fps (scoring speed)", data.fps === null ? "null" : String(data.fps)]);
  const first = data.frameNums[0]!;
  const last = data.frameNums[data.frameNums.length - 1]!;
  rows.push(["frames", `${data.frameNums.length} (frame ${first} to ${last})`]);
  rows.push(["model score keys", data.modelKeys.join(", ") || "none"], ["feature keys", data.featureKeys.join(", ") || "none"]);
  const command = run ? `<tr><td>command</td><td><code>${h(run.commandLine)}</code></td></tr>` : "";
  return `<section id="settings">
<h2>Settings</h2>
<table class="settings"><tbody>${rows.map(([k, v]) => `<tr><td>${h(k)}</td><td>${h(v)}</td></tr>`).join("\n")}${command}</tbody></table>
</section>`;
}

/** One self-contained HTML page (inline CSS, SVG and script; nothing fetched) for a result. */
export function renderReport(data: ReportData, generator: string): string {
  const key = primaryKey(data);
  const name = title(data);
  const sections = [modelChart(data, key), worstTable(data, key), featureCharts(data), pooledTable(data), settingsTable(data)];
  const nav = [["vmaf", "VMAF", data.modelKeys.length], ["worst", "worst frames", key], ["features", "features", data.featureKeys.length], ["pooled", "pooled", 1], ["settings", "settings", 1]]
    .filter(([, , shown]) => shown)
    .map(([id, label]) => `<a href="#${id}">${label}</a>`)
    .join("");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="${h(generator)}">
<title>VMAF report: ${h(name)}</title>
<style>${REPORT_CSS}</style>
</head>
<body>
<header>
<h1>VMAF report: ${h(name)}</h1>
${summary(data, key)}
<nav>${nav}</nav>
</header>
${sections.filter(Boolean).join("\n")}
<footer>Written by ${h(generator)} from ${h(basename(data.source))}. Self-contained: it loads nothing from the network.</footer>
<script>${REPORT_SCRIPT}</script>
</body>
</html>
`;
}
