import { escapeHtml } from "./html-escape.ts";

export interface PlotSeries {
  key: string;
  /** One value per frame of the plot; null or undefined leaves a gap. */
  values: readonly (number | null | undefined)[];
  color: string;
  /** The x of each value when this series has its own frames (runs overlaid); default: the plot's frameNums. */
  frameNums?: readonly number[];
}

/** A filled range per frame (a confidence interval) drawn under the lines. */
export interface PlotBand {
  /** The legend key that shows and hides it (the series it surrounds). */
  key: string;
  lo: readonly (number | null | undefined)[];
  hi: readonly (number | null | undefined)[];
  color: string;
  frameNums?: readonly number[];
  /** Accessible name (`vmaf 95% confidence interval`). */
  label: string;
}

export interface PlotOptions {
  /** The frames the x axis spans (frame numbers, increasing), and the x of every series without its own. */
  frameNums: readonly number[];
  series: readonly PlotSeries[];
  bands?: readonly PlotBand[];
  width: number;
  height: number;
  /** Accessible name of the chart. */
  label: string;
  /** Frames (indices into frameNums) circled on the first series: the worst frames. */
  highlight?: readonly number[];
}

const MARGIN = { right: 14, top: 14, bottom: 30 };
/** About how wide one digit of an 11px axis label is, to leave room for the longest. */
const LABEL_CHAR_WIDTH = 6.6;

const AXIS_LIMIT = 1e300;
const MIN_AXIS_RANGE = 1e-290;

/**
 * Round numbers (1, 2, 2.5, 5 × 10^k) covering [lo, hi] with about `count` steps; `tight`
 * keeps the range as given (frames: the line runs edge to edge) with the ticks inside it.
 */
export function niceTicks(lo: number, hi: number, count: number, integer = false, tight = false): { lo: number; hi: number; step: number; ticks: number[] } {
  // A result file may hold any double: beyond ±1e300, hi − lo overflows (values there are drawn
  // off the edge), and a range of a few subnormals has no step a double can hold: padded.
  lo = Math.min(Math.max(lo, -AXIS_LIMIT), AXIS_LIMIT);
  hi = Math.min(Math.max(hi, -AXIS_LIMIT), AXIS_LIMIT);
  if (!(hi - lo > MIN_AXIS_RANGE)) {
    const pad = Math.abs(lo) * 0.05 || 1;
    lo -= pad;
    hi += pad;
  }
  const raw = (hi - lo) / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  let step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= raw)!;
  if (integer) step = Math.max(1, Math.round(step));
  const first = (tight ? Math.ceil(lo / step - 1e-9) : Math.floor(lo / step + 1e-9)) * step;
  const last = (tight ? Math.floor(hi / step + 1e-9) : Math.ceil(hi / step - 1e-9)) * step;
  const ticks: number[] = [];
  for (let i = 0; first + i * step <= last + step * 1e-9; i++) ticks.push(first + i * step);
  return tight ? { lo, hi, step, ticks } : { lo: first, hi: last, step, ticks };
}

/** A tick label with just the digits its step needs. */
export function tickLabel(value: number, step: number): string {
  const decimals = Math.max(0, Math.ceil(-Math.log10(step) - 1e-9) + (/^2\.?5/.test(step.toExponential()) ? 1 : 0));
  const text = value.toFixed(Math.min(decimals, 12));
  return Number(text) === 0 ? "0" : text;
}

/**
 * SVG path data through the points, a new subpath after each gap. With more points than
 * pixels, each pixel column keeps its first, lowest, highest and last point (M4), so the
 * line looks the same and peaks are never lost, at a size bounded by the width.
 */
export function pathData(xs: readonly number[], ys: readonly (number | undefined)[]): string {
  const out: string[] = [];
  let pen = false;
  let column: { px: number; pts: [number, number, number][] } | undefined;
  const emit = (x: number, y: number) => {
    out.push(`${pen ? "L" : "M"}${x.toFixed(1)} ${y.toFixed(1)}`);
    pen = true;
  };
  const flush = () => {
    if (!column) return;
    const pts = column.pts;
    let lo = pts[0]!;
    let hi = pts[0]!;
    for (const p of pts) {
      if (p[1] < lo[1]) lo = p;
      if (p[1] > hi[1]) hi = p;
    }
    const keep = [...new Set([pts[0]!, lo, hi, pts[pts.length - 1]!])].sort((a, b) => a[2] - b[2]);
    for (const [x, y] of keep) emit(x, y);
    column = undefined;
  };
  ys.forEach((y, i) => {
    if (y === undefined || !Number.isFinite(y)) {
      flush();
      // A lone point before a gap still shows: a zero-length segment drawn with round caps.
      if (pen && !out[out.length - 1]!.startsWith("L")) out[out.length - 1] += "h0";
      pen = false;
      return;
    }
    const x = xs[i]!;
    const px = Math.round(x);
    if (column && column.px !== px) flush();
    (column ??= { px, pts: [] }).pts.push([x, y, i]);
  });
  flush();
  if (pen && !out[out.length - 1]!.startsWith("L")) out[out.length - 1] += "h0";
  return out.join("");
}

/** Index ranges [first, last] of consecutive null values. */
export function nullRuns(values: readonly (number | null | undefined)[]): [number, number][] {
  const runs: [number, number][] = [];
  values.forEach((v, i) => {
    if (v !== null) return;
    const last = runs[runs.length - 1];
    if (last && last[1] === i - 1) last[1] = i;
    else runs.push([i, i]);
  });
  return runs;
}

/**
 * SVG path data of a filled band between `lo` and `hi`, one closed subpath per run of
 * frames where both are finite. With more points than pixels each pixel column keeps the
 * lowest `lo` and the highest `hi`, so the band's size is bounded and its extent exact.
 */
export function bandPath(xs: readonly number[], lo: readonly (number | undefined)[], hi: readonly (number | undefined)[]): string {
  const out: string[] = [];
  let run: { x: number; lo: number; hi: number }[] = [];
  const close = () => {
    if (run.length) {
      const top = run.map((p, i) => `${i ? "L" : "M"}${p.x.toFixed(1)} ${p.hi.toFixed(1)}`);
      const bottom = [...run].reverse().map((p) => `L${p.x.toFixed(1)} ${p.lo.toFixed(1)}`);
      // A lone frame still shows: a sliver a pixel wide.
      if (run.length === 1) top.push(`L${(run[0]!.x + 1).toFixed(1)} ${run[0]!.hi.toFixed(1)}`, `L${(run[0]!.x + 1).toFixed(1)} ${run[0]!.lo.toFixed(1)}`);
      out.push(`${top.join("")}${bottom.join("")}Z`);
    }
    run = [];
  };
  xs.forEach((x, i) => {
    const l = lo[i];
    const h = hi[i];
    if (l === undefined || h === undefined || !Number.isFinite(l) || !Number.isFinite(h)) return close();
    const last = run[run.length - 1];
    // SVG y grows downwards: the band's top is the smaller y.
    const top = Math.min(l, h);
    const bottom = Math.max(l, h);
    if (last && Math.round(last.x) === Math.round(x)) {
      last.hi = Math.min(last.hi, top);
      last.lo = Math.max(last.lo, bottom);
    } else run.push({ x, hi: top, lo: bottom });
  });
  close();
  return out.join("");
}

/** A line chart of per-frame scores, as inline SVG (no script needed to see it). */
export function renderPlot(o: PlotOptions): string {
  const { width, height, frameNums } = o;
  const plotH = height - MARGIN.top - MARGIN.bottom;
  const isFinite = (v: number | null | undefined): v is number => typeof v === "number" && Number.isFinite(v);
  const finite = [...o.series.flatMap((s) => s.values.filter(isFinite)), ...(o.bands ?? []).flatMap((b) => [...b.lo.filter(isFinite), ...b.hi.filter(isFinite)])];
  const y = niceTicks(finite.length ? finite.reduce((a, b) => Math.min(a, b)) : 0, finite.length ? finite.reduce((a, b) => Math.max(a, b)) : 1, Math.max(2, Math.round(plotH / 45)));
  const yLabels = y.ticks.map((t) => tickLabel(t, y.step));
  // Scores that barely move (1.0000007 ± 1e-7) need long labels: the plot starts after them.
  const left = Math.ceil(Math.max(...yLabels.map((l) => l.length)) * LABEL_CHAR_WIDTH + 12);
  const marginLeft = Math.max(40, left);
  const plotW = width - marginLeft - MARGIN.right;
  const x = niceTicks(frameNums[0] ?? 0, frameNums[frameNums.length - 1] ?? 0, Math.max(2, Math.round(plotW / 90)), true, true);
  const sx = (f: number) => marginLeft + ((f - x.lo) / (x.hi - x.lo)) * plotW;
  const sy = (v: number) => MARGIN.top + (1 - (v - y.lo) / (y.hi - y.lo)) * plotH;
  const xs = frameNums.map(sx);
  const xsOf = (own: readonly number[] | undefined) => (own ? own.map(sx) : xs);

  const parts: string[] = [];
  parts.push(`<svg class="plot" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeHtml(o.label)}" data-left="${marginLeft}" data-right="${width - MARGIN.right}" data-x0="${x.lo}" data-x1="${x.hi}">`);
  parts.push(`<g class="grid">`);
  for (const t of y.ticks) parts.push(`<line x1="${marginLeft}" x2="${width - MARGIN.right}" y1="${sy(t).toFixed(1)}" y2="${sy(t).toFixed(1)}"/>`);
  for (const t of x.ticks) parts.push(`<line x1="${sx(t).toFixed(1)}" x2="${sx(t).toFixed(1)}" y1="${MARGIN.top}" y2="${height - MARGIN.bottom}"/>`);
  parts.push(`</g><g class="axis">`);
  y.ticks.forEach((t, i) => parts.push(`<text x="${marginLeft - 6}" y="${(sy(t) + 4).toFixed(1)}" text-anchor="end">${yLabels[i]}</text>`));
  for (const t of x.ticks) parts.push(`<text x="${sx(t).toFixed(1)}" y="${height - MARGIN.bottom + 16}" text-anchor="middle">${t}</text>`);
  parts.push(`<text x="${width - MARGIN.right}" y="${height - 3}" text-anchor="end" class="axis-title">frame</text>`);
  parts.push(`</g>`);
  // Frames where a series is null (infinite): a mark along the top, so a gap reads as such;
  // one mark per run of null frames keeps long runs small.
  const nullMarks: string[] = [];
  for (const s of o.series) {
    const f = s.frameNums ?? frameNums;
    const sxs = xsOf(s.frameNums);
    for (const [a, b] of nullRuns(s.values)) {
      const frames = a === b ? `frame ${f[a]}` : `frames ${f[a]} to ${f[b]}`;
      nullMarks.push(`<rect class="null-mark" data-key="${escapeHtml(s.key)}" x="${(sxs[a]! - 2).toFixed(1)}" y="${MARGIN.top}" width="${(sxs[b]! - sxs[a]! + 4).toFixed(1)}" height="6" fill="${s.color}"><title>${escapeHtml(s.key)}: null (infinite) at ${frames}</title></rect>`);
    }
  }
  if (!finite.length) parts.push(`<text class="empty" x="${marginLeft + plotW / 2}" y="${MARGIN.top + plotH / 2}" text-anchor="middle">no finite values</text>`);
  const scaled = (values: readonly (number | null | undefined)[]) => values.map((v) => (typeof v === "number" ? sy(v) : undefined));
  for (const b of o.bands ?? []) {
    parts.push(`<path class="band" data-key="${escapeHtml(b.key)}" fill="${b.color}" d="${bandPath(xsOf(b.frameNums), scaled(b.lo), scaled(b.hi))}"><title>${escapeHtml(b.label)}</title></path>`);
  }
  for (const s of o.series) {
    const d = pathData(xsOf(s.frameNums), scaled(s.values));
    parts.push(`<path class="series" data-key="${escapeHtml(s.key)}" stroke="${s.color}" d="${d}"><title>${escapeHtml(s.key)}</title></path>`);
  }
  parts.push(...nullMarks);
  const first = o.series[0];
  if (first && o.highlight?.length) {
    const fxs = xsOf(first.frameNums);
    const f = first.frameNums ?? frameNums;
    parts.push(`<g class="worst">`);
    for (const i of o.highlight) {
      const v = first.values[i];
      if (typeof v === "number") parts.push(`<circle cx="${fxs[i]!.toFixed(1)}" cy="${sy(v).toFixed(1)}" r="4"><title>frame ${f[i]}: ${escapeHtml(first.key)} ${v}</title></circle>`);
    }
    parts.push(`</g>`);
  }
  parts.push(`<line class="cursor" x1="0" x2="0" y1="${MARGIN.top}" y2="${height - MARGIN.bottom}" visibility="hidden"/>`);
  parts.push(`</svg>`);
  return parts.join("");
}
