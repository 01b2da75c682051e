import { PALETTE, renderPlot, type PlotSeries } from "@vq/cli/report";

/** Redraws at most this often: an SVG of a few thousand points per frame would cost more than the scoring. */
const REDRAW_MS = 250;

/**
 * The per-frame plot while scoring: one line per distorted file, of the first model score
 * (vmaf) or, without a model, the first feature; drawn with the report's own plot renderer.
 */
export class LivePlot {
  private key?: string;
  private readonly lines: { name: string; frameNums: number[]; values: number[] }[] = [];
  private timer?: ReturnType<typeof setTimeout>;

  constructor(private readonly host: HTMLElement) {}

  reset(): void {
    this.key = undefined;
    this.lines.length = 0;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.host.replaceChildren();
  }

  start(index: number, name: string): void {
    this.lines[index] = { name, frameNums: [], values: [] };
  }

  add(index: number, frameNum: number, metrics: Record<string, number>): void {
    this.key ??= Object.keys(metrics).find((k) => k.startsWith("vmaf")) ?? Object.keys(metrics)[0];
    const line = this.lines[index];
    if (!line || this.key === undefined) return;
    line.frameNums.push(frameNum);
    line.values.push(metrics[this.key]!);
    this.timer ??= setTimeout(() => this.draw(), REDRAW_MS);
  }

  /** Draws now (the last frames of a run, before the report replaces the plot). */
  draw(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const lines = this.lines.filter((l) => l?.frameNums.length);
    if (!lines.length || this.key === undefined) return;
    const frames = [...new Set(lines.flatMap((l) => l.frameNums))].sort((a, b) => a - b);
    const series: PlotSeries[] = lines.map((l, i) => ({ key: lines.length > 1 ? `${this.key} ${l.name}` : this.key!, values: l.values, frameNums: l.frameNums, color: PALETTE[i % PALETTE.length]! }));
    this.host.innerHTML = renderPlot({ frameNums: frames.length > 1 ? frames : [frames[0]!, frames[0]! + 1], series, width: 960, height: 260, label: `${this.key} per frame, so far` });
  }
}
