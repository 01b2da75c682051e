import { basename } from "node:path";
import { escapeHtml as h } from "./html-escape.ts";
import { REPORT_CSS, REPORT_SCRIPT } from "./report-assets.ts";
import { formatBitrate, formatFrameRate } from "./rate-quality.ts";
import { confidenceInterval, nullCount, type ReportData } from "./report-data.ts";
import type { RunInputs } from "./run-inputs.ts";
import type { PlotBand } from "./svg-plot.ts";
import { fixed, framesBelowMean, WORST_FRAMES_DECIMALS } from "./worst-frames.ts";

/** Colour-blind-friendly (Okabe–Ito, then Tableau) so neighbouring series stay apart. */
export const PALETTE = ["#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#7f3c8d", "#3a7d44", "#b0413e", "#4e79a7", "#f28e2b", "#59a14f"];
/** Rows of a worst-frames table; the first THUMBNAIL_ROWS get thumbnails when the inputs are readable. */
export const WORST_FRAMES = 10;
export const THUMBNAIL_ROWS = 3;

/** Bootstrap models' member scores (vmaf_0001 ...): many, similar, drawn thin. */
export const isBootstrapMember = (key: string) => /^vmaf_\d{4}$/.test(key);

/** Numbers as the JSON has them (the shortest text that reads back the same double). */
export function num(v: number | null | undefined): string {
  if (v === null) return `<td class="num null" title="null in the JSON: infinite or undefined">null</td>`;
  if (v === undefined) return `<td class="num">—</td>`;
  return `<td class="num">${h(String(v))}</td>`;
}

/** A headline number, rounded for reading: `digits` significant digits. */
export function short(v: number | null | undefined, digits = 5): string {
  if (v === null) return "null (infinite)";
  if (v === undefined) return "—";
  return String(Number(v.toPrecision(digits)));
}

export function nullNote(data: ReportData, key: string): string {
  const n = nullCount(data, key);
  if (!n) return "";
  return `<p class="note"><code>${h(key)}</code> is null (infinite, e.g. identical frames) on ${n} of ${data.frameNums.length} frames: gaps in its line, marked at the top.</p>`;
}

/** A bootstrap model's confidence interval around `key` as a plot band, when the run has one. */
export function bandFor(data: ReportData, key: string, legendKey: string, color: string, ownFrames = false): PlotBand | undefined {
  const ci = confidenceInterval(data, key);
  if (!ci) return undefined;
  return { key: legendKey, lo: data.values[ci.lo]!, hi: data.values[ci.hi]!, color, frameNums: ownFrames ? data.frameNums : undefined, label: `${legendKey}: ${ci.level}% confidence interval (${ci.lo} to ${ci.hi})` };
}

/** One worst-frames cell: the table's single precision, null as null. */
function cell(v: number | null | undefined, cls = "num"): string {
  if (v === null) return `<td class="num null" title="null in the JSON: infinite or undefined">null</td>`;
  if (v === undefined) return `<td class="num">—</td>`;
  return `<td class="${cls}">${fixed(v)}</td>`;
}

/**
 * The frames below the run's mean, lowest first, with the true minimum marked and every
 * number to WORST_FRAMES_DECIMALS; the first rows with the reference beside the distorted
 * when the inputs were readable.
 */
export function worstTable(data: ReportData, key: string | undefined, id: string, inputs?: RunInputs): string {
  if (!key) return "";
  const worst = framesBelowMean(data, key, WORST_FRAMES);
  const ci = confidenceInterval(data, key);
  const others = data.modelKeys.filter((k) => k !== key && !isBootstrapMember(k)).slice(0, 5);
  const pictures = worst.frames.some((f) => inputs?.thumbnails.has(f.frameNum));
  const rows = worst.frames.map((f, rank) => {
    const t = inputs?.thumbnails.get(f.frameNum);
    const mark = f.isMinimum ? ` <span class="min-mark" title="the run's lowest ${h(key)}">minimum</span>` : "";
    const thumbs = pictures
      ? `<td class="thumbs">${t ? `<figure class="thumb"><img alt="reference, frame ${f.frameNum}" src="${t.reference}"><figcaption>reference</figcaption></figure><figure class="thumb"><img alt="distorted, frame ${f.frameNum}" src="${t.distorted}"><figcaption>distorted</figcaption></figure>` : ""}</td>`
      : "";
    return `<tr${f.isMinimum ? ' class="minimum"' : ""}><td class="num">${rank + 1}</td><td class="num frame">${f.frameNum}${mark}</td>${cell(f.value)}${cell(f.belowMean)}${others.map((k) => cell(data.values[k]![f.index])).join("")}${thumbs}</tr>`;
  });
  const skipped = nullCount(data, key);
  const mean = worst.mean === undefined ? "" : `mean ${fixed(worst.mean)}`;
  const what = worst.frames.length
    ? `<p class="sub">${worst.belowCount} of ${data.frameNums.length} frames are below the <code>${h(key)}</code> ${h(mean)}${worst.belowCount > worst.frames.length ? `; the ${worst.frames.length} lowest` : ""}. Every number to ${WORST_FRAMES_DECIMALS} decimals.${ci && others.includes(ci.lo) ? ` <code>${h(ci.lo)}</code> and <code>${h(ci.hi)}</code>: the bootstrap models' ${ci.level}% confidence interval.` : ""}</p>`
    : `<p class="sub">No frame is below the <code>${h(key)}</code> ${h(mean)}.</p>`;
  const table = worst.frames.length
    ? `<table class="worst-frames" id="${h(id)}-worst-frames"><thead><tr><th class="num">#</th><th class="num">frame</th><th class="num">${h(key)}</th><th class="num">vs mean</th>${others.map((k) => `<th class="num">${h(k)}</th>`).join("")}${pictures ? "<th>reference · distorted</th>" : ""}</tr></thead>
<tbody>${rows.join("\n")}</tbody></table>`
    : "";
  return `${what}${table}
${skipped ? `<p class="note">${skipped} frame${skipped === 1 ? " is" : "s are"} null (infinite) for <code>${h(key)}</code> and not ranked.</p>` : ""}${inputs?.notes.length ? inputs.notes.map((n) => `<p class="note">${h(n)}</p>`).join("") : ""}`;
}

export function pooledTable(data: ReportData, keys: readonly string[] = Object.keys(data.pooled)): string {
  const rows = keys.map((key) => {
    const p = data.pooled[key];
    return p ? `<tr><td class="key">${h(key)}</td>${num(p.min)}${num(p.max)}${num(p.mean)}${num(p.harmonic_mean)}</tr>` : `<tr><td class="key">${h(key)}</td><td class="num" colspan="4">not pooled</td></tr>`;
  });
  const aggregate = Object.entries(data.aggregate);
  return `<table class="pooled"><thead><tr><th>key</th><th class="num">min</th><th class="num">max</th><th class="num">mean</th><th class="num">harmonic mean</th></tr></thead>
<tbody>${rows.join("\n")}</tbody></table>
${aggregate.length ? `<h3>Aggregate metrics</h3><table class="aggregate"><tbody>${aggregate.map(([k, v]) => `<tr><td class="key">${h(k)}</td>${num(v)}</tr>`).join("")}</tbody></table>` : ""}`;
}

export function settingsTable(data: ReportData, inputs?: RunInputs): string {
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
    if (run.alignment) rows.push(["alignment", run.alignment]);
    if (run.scale) rows.push(["scale", `distorted scaled to the reference's size (${run.scaler ?? "bicubic"})`]);
    if (run.conform) rows.push(["conform", `distorted converted to the reference's format and frame rate where they differ (${run.scaler ?? "bicubic"})`]);
  }
  const rate = inputs?.rate;
  if (rate) {
    const bits = inputs.bitsPerSecond;
    rows.push(["distorted file", `${rate.bytes} bytes, ${rate.frames} frames at ${rate.frameRate ? `${formatFrameRate(rate.frameRate)} fps` : "an unknown rate"}${bits !== undefined ? `: ${formatBitrate(bits)}` : ""}`]);
  }
  rows.push(["result file", data.source], ["version", data.version], ["fps (scoring speed)", data.fps === null ? "null" : String(data.fps)]);
  const first = data.frameNums[0]!;
  const last = data.frameNums[data.frameNums.length - 1]!;
  rows.push(["frames", `${data.frameNums.length} (frame ${first} to ${last})`]);
  rows.push(["model score keys", data.modelKeys.join(", ") || "none"], ["feature keys", data.featureKeys.join(", ") || "none"]);
  const command = run ? `<tr><td>command</td><td><code>${h(run.commandLine)}</code></td></tr>` : "";
  return `<table class="settings"><tbody>${rows.map(([k, v]) => `<tr><td>${h(k)}</td><td>${h(v)}</td></tr>`).join("\n")}${command}</tbody></table>`;
}

/** The page around the sections: inline style and script, nothing fetched. */
export function page(o: { title: string; generator: string; header: string; nav: [string, string][]; sections: string[]; sources: string[] }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="${h(o.generator)}">
<title>${h(o.title)}</title>
<style>${REPORT_CSS}</style>
</head>
<body>
<header>
<h1>${h(o.title)}</h1>
${o.header}
<nav>${o.nav.map(([id, label]) => `<a href="#${h(id)}">${h(label)}</a>`).join("")}</nav>
</header>
${o.sections.filter(Boolean).join("\n")}
<footer>Written by ${h(o.generator)} from ${o.sources.map((s) => h(basename(s))).join(", ")}. Self-contained: it loads nothing from the network.</footer>
<script>${REPORT_SCRIPT}</script>
</body>
</html>
`;
}
