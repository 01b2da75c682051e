import { escapeHtml } from "./html-escape.ts";
import { niceTicks, tickLabel } from "./svg-plot.ts";

export interface XySeries {
  key: string;
  /** [x, y] in drawing order. */
  points: readonly (readonly [number, number])[];
  color: string;
  /** Draw as a staircase (a distribution function) rather than straight segments. */
  step?: boolean;
  /** A dot at each point, with this text as its tooltip. */
  markers?: readonly string[];
  /** Text written beside each marked point. */
  labels?: readonly string[];
}

export interface XyPlotOptions {
  series: readonly XySeries[];
  width: number;
  height: number;
  /** Accessible name of the chart. */
  label: string;
  xTitle: string;
  yTitle: string;
  /** Fixed y range (a fraction axis: [0, 1]); default: the data's, widened to round ticks. */
  yRange?: [number, number];
}

const MARGIN = { right: 16, top: 14, bottom: 34 };
const LABEL_CHAR_WIDTH = 6.6;

/**
 * The empirical distribution function of `values` as staircase points: (v, share of values
 * ≤ v). With more values than `maxPoints`, evenly spaced ranks stand for the rest (the
 * curve is drawn a pixel wide anyway); the lowest and highest always stay.
 */
export function cdfPoints(values: readonly number[], maxPoints = 800): [number, number][] {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  const n = sorted.length;
  if (!n) return [];
  const picks = n <= maxPoints ? sorted.map((_, i) => i) : Array.from({ length: maxPoints }, (_, k) => Math.round((k * (n - 1)) / (maxPoints - 1)));
  const points: [number, number][] = [[sorted[0]!, 0]];
  for (const i of picks) {
    // the share at or below a value counts every equal value (the last of a tie)
    let last = i;
    while (last + 1 < n && sorted[last + 1] === sorted[i]) last++;
    points.push([sorted[i]!, (last + 1) / n]);
  }
  return points;
}

/** A chart of (x, y) series with both axes numeric, as inline SVG. */
export function renderXyPlot(o: XyPlotOptions): string {
  const { width, height } = o;
  const plotH = height - MARGIN.top - MARGIN.bottom;
  const xsAll = o.series.flatMap((s) => s.points.map((p) => p[0]));
  const ysAll = o.series.flatMap((s) => s.points.map((p) => p[1]));
  const min = (v: number[], d: number) => (v.length ? v.reduce((a, b) => Math.min(a, b)) : d);
  const max = (v: number[], d: number) => (v.length ? v.reduce((a, b) => Math.max(a, b)) : d);
  const y = o.yRange ? { ...niceTicks(o.yRange[0], o.yRange[1], Math.max(2, Math.round(plotH / 45)), false, true) } : niceTicks(min(ysAll, 0), max(ysAll, 1), Math.max(2, Math.round(plotH / 45)));
  const yLabels = y.ticks.map((t) => tickLabel(t, y.step));
  const marginLeft = Math.max(48, Math.ceil(Math.max(...yLabels.map((l) => l.length)) * LABEL_CHAR_WIDTH + 26));
  const plotW = width - marginLeft - MARGIN.right;
  const x = niceTicks(min(xsAll, 0), max(xsAll, 1), Math.max(2, Math.round(plotW / 80)));
  const sx = (v: number) => marginLeft + ((v - x.lo) / (x.hi - x.lo)) * plotW;
  const sy = (v: number) => MARGIN.top + (1 - (v - y.lo) / (y.hi - y.lo)) * plotH;
  const parts: string[] = [];
  parts.push(`<svg class="plot xy" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeHtml(o.label)}">`);
  parts.push(`<g class="grid">`);
  for (const t of y.ticks) parts.push(`<line x1="${marginLeft}" x2="${width - MARGIN.right}" y1="${sy(t).toFixed(1)}" y2="${sy(t).toFixed(1)}"/>`);
  for (const t of x.ticks) parts.push(`<line x1="${sx(t).toFixed(1)}" x2="${sx(t).toFixed(1)}" y1="${MARGIN.top}" y2="${height - MARGIN.bottom}"/>`);
  parts.push(`</g><g class="axis">`);
  y.ticks.forEach((t, i) => parts.push(`<text x="${marginLeft - 6}" y="${(sy(t) + 4).toFixed(1)}" text-anchor="end">${yLabels[i]}</text>`));
  for (const t of x.ticks) parts.push(`<text x="${sx(t).toFixed(1)}" y="${height - MARGIN.bottom + 16}" text-anchor="middle">${tickLabel(t, x.step)}</text>`);
  parts.push(`<text x="${width - MARGIN.right}" y="${height - 3}" text-anchor="end" class="axis-title">${escapeHtml(o.xTitle)}</text>`);
  parts.push(`<text transform="translate(12 ${MARGIN.top + plotH / 2}) rotate(-90)" text-anchor="middle" class="axis-title">${escapeHtml(o.yTitle)}</text>`);
  parts.push(`</g>`);
  if (!xsAll.length) parts.push(`<text class="empty" x="${marginLeft + plotW / 2}" y="${MARGIN.top + plotH / 2}" text-anchor="middle">no finite values</text>`);
  for (const s of o.series) {
    const d: string[] = [];
    s.points.forEach(([px, py], i) => {
      if (i && s.step) d.push(`L${sx(px).toFixed(1)} ${sy(s.points[i - 1]![1]).toFixed(1)}`);
      d.push(`${i ? "L" : "M"}${sx(px).toFixed(1)} ${sy(py).toFixed(1)}`);
    });
    if (s.points.length === 1) d.push("h0");
    parts.push(`<path class="series" data-key="${escapeHtml(s.key)}" stroke="${s.color}" d="${d.join("")}"><title>${escapeHtml(s.key)}</title></path>`);
    if (s.markers) {
      parts.push(`<g class="markers" data-key="${escapeHtml(s.key)}">`);
      s.points.forEach(([px, py], i) => {
        parts.push(`<circle cx="${sx(px).toFixed(1)}" cy="${sy(py).toFixed(1)}" r="4.5" fill="${s.color}"><title>${escapeHtml(s.markers![i] ?? "")}</title></circle>`);
        const text = s.labels?.[i];
        // right of the point, or left of it near the right edge
        const right = sx(px) < width - MARGIN.right - 160;
        if (text) parts.push(`<text class="point-label" x="${(sx(px) + (right ? 9 : -9)).toFixed(1)}" y="${(sy(py) + 4).toFixed(1)}" text-anchor="${right ? "start" : "end"}">${escapeHtml(text)}</text>`);
      });
      parts.push(`</g>`);
    }
  }
  parts.push(`</svg>`);
  return parts.join("");
}
