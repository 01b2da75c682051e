import { basename } from "node:path";
import { escapeHtml as h, jsonForScript } from "./html-escape.ts";
import { confidenceInterval, primaryKey, type ReportData } from "./report-data.ts";
import { bandFor, isBootstrapMember, nullNote, page, PALETTE, pooledTable, settingsTable, short, WORST_FRAMES, worstTable } from "./report-sections.ts";
import type { RunInputs } from "./run-inputs.ts";
import { renderPlot, type PlotSeries } from "./svg-plot.ts";
import { framesBelowMean } from "./worst-frames.ts";

function title(data: ReportData): string {
  return data.run ? `${basename(data.run.reference)} vs ${basename(data.run.distorted)}` : basename(data.source);
}

function summary(data: ReportData, key: string | undefined): string {
  const facts = [`${data.frameNums.length} frame${data.frameNums.length === 1 ? "" : "s"}`];
  if (data.run) facts.push(`${data.run.width}×${data.run.height}`, `backend ${data.run.backendUsed}`);
  facts.push(`version ${data.version}`);
  if (!key) return `<p class="summary">No scores in this file.</p>`;
  const p = data.pooled[key];
  const worst = framesBelowMean(data, key, 1).frames[0];
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
  // A bootstrap model's interval is a band around its key, not two more lines.
  const ci = key ? confidenceInterval(data, key) : undefined;
  const lines = data.modelKeys.filter((k) => k !== ci?.lo && k !== ci?.hi);
  // The ranking key first: its worst frames are circled on it.
  const keys = key && lines.includes(key) ? [key, ...lines.filter((k) => k !== key)] : lines;
  const series = seriesFor(data, keys);
  const band = key && ci ? bandFor(data, key, `${key} ${ci.level}% CI`, series[0]!.color) : undefined;
  // Circles stand out only while few: about one frame in ten, at most the table's ten.
  const circled = Math.min(WORST_FRAMES, Math.max(1, Math.floor(data.frameNums.length / 10)));
  const highlight = key ? framesBelowMean(data, key, circled).frames.map((f) => f.index) : [];
  let svg = renderPlot({ frameNums: data.frameNums, series, bands: band ? [band] : [], width: 1200, height: 380, label: `${keys.join(", ")} per frame`, highlight });
  svg = svg.replace(/<path class="series" data-key="(vmaf_\d{4})"/g, '<path class="series minor" data-key="$1"');
  const legend = [
    ...series.map((s) => `<label><input type="checkbox" checked data-key="${h(s.key)}"><span class="swatch" style="background:${s.color}"></span>${h(s.key)}</label>`),
    ...(band ? [`<label><input type="checkbox" checked data-key="${h(band.key)}"><span class="swatch band" style="background:${band.color}"></span>${h(band.key)}</label>`] : []),
  ].join("");
  const embedded = { frames: data.frameNums, series: Object.fromEntries(data.modelKeys.map((k) => [k, data.values[k]])) };
  return `<section id="vmaf">
<h2>VMAF per frame</h2>
<div class="legend">${legend}</div>
<div class="chart" id="vmaf-chart">${svg}</div>
<div class="readout" id="readout"></div>
${highlight.length ? `<p class="sub">Red circle${highlight.length === 1 ? "" : "s"}: the lowest <code>${h(key!)}</code> frame${highlight.length === 1 ? "" : "s"} below the mean (see the table below).${band ? ` Shaded: the bootstrap models' ${ci!.level}% confidence interval.` : ""} Hover for each frame's scores; click a legend entry to hide its line.</p>` : ""}
${keys.map((k) => nullNote(data, k)).join("")}
<script type="application/json" id="report-data">${jsonForScript(embedded)}</script>
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

/**
 * One self-contained HTML page (inline CSS, SVG and script; nothing fetched) for a result;
 * `inputs` (from inspectRunInputs) adds the worst frames' pictures and the bitrate.
 */
export function renderReport(data: ReportData, generator: string, inputs?: RunInputs): string {
  const key = primaryKey(data);
  const worst = key ? `<section id="worst">\n<h2>Worst frames (lowest <code>${h(key)}</code>)</h2>\n${worstTable(data, key, "run", inputs)}\n</section>` : "";
  const sections = [
    modelChart(data, key),
    worst,
    featureCharts(data),
    `<section id="pooled">\n<h2>Pooled scores</h2>\n${pooledTable(data)}\n</section>`,
    `<section id="settings">\n<h2>Settings</h2>\n${settingsTable(data, inputs)}\n</section>`,
  ];
  const nav = (
    [
      ["vmaf", "VMAF", data.modelKeys.length],
      ["worst", "worst frames", key],
      ["features", "features", data.featureKeys.length],
      ["pooled", "pooled", 1],
      ["settings", "settings", 1],
    ] as const
  )
    .filter(([, , shown]) => shown)
    .map(([id, label]) => [id, label] as [string, string]);
  return page({ title: `VMAF report: ${title(data)}`, generator, header: summary(data, key), nav, sections, sources: [data.source] });
}
