import { describe, expect, test } from "bun:test";
import { bandPath, niceTicks, nullRuns, pathData, renderPlot, tickLabel } from "./svg-plot.ts";

const commands = (d: string) => d.match(/[ML][^ML]*/g) ?? [];

describe("pathData", () => {
  test("a gap starts a new subpath; a lone point is a zero-length segment", () => {
    const d = pathData([0, 10, 20, 30, 40], [5, undefined, 7, 8, undefined]);
    expect(d).toBe("M0.0 5.0h0M20.0 7.0L30.0 8.0");
  });

  test("nothing finite, nothing drawn", () => {
    expect(pathData([0, 1], [undefined, undefined])).toBe("");
  });

  test("more points than pixels: bounded size, extremes kept", () => {
    const n = 100_000;
    const xs = Array.from({ length: n }, (_, i) => (i / n) * 500);
    const ys = xs.map((_, i) => Math.sin(i / 50) * 100 + (i === 31_337 ? 1000 : 0) + (i === 77_000 ? -1000 : 0));
    const d = pathData(xs, ys);
    expect(commands(d).length).toBeLessThanOrEqual(4 * 501);
    const drawnYs = commands(d).map((c) => Number(c.slice(1).split(" ")[1]));
    expect(Math.max(...drawnYs)).toBeCloseTo(Math.max(...ys), 1);
    expect(Math.min(...drawnYs)).toBeCloseTo(Math.min(...ys), 1);
  });
});

describe("axes", () => {
  test("nice ticks cover the data in 1, 2, 2.5 or 5 × 10^k steps", () => {
    for (const [lo, hi] of [[0, 100], [97.43, 100], [0.999997, 0.999999], [1.0000006685, 1.0000007352], [-3, 19782.6], [5, 5], [0, 0]] as const) {
      const t = niceTicks(lo, hi, 6);
      expect(t.lo).toBeLessThanOrEqual(lo);
      expect(t.hi).toBeGreaterThanOrEqual(hi);
      expect(t.hi).toBeGreaterThan(t.lo);
      expect(t.step / 10 ** Math.floor(Math.log10(t.step) + 1e-12)).toBeOneOf([1, 2, 2.5, 5]);
      expect(t.ticks.length).toBeLessThanOrEqual(13);
    }
  });

  test("tight integer ticks (frames) keep the range and stay inside it", () => {
    const t = niceTicks(0, 23, 8, true, true);
    expect([t.lo, t.hi]).toEqual([0, 23]);
    expect(t.ticks.every((x) => Number.isInteger(x) && x >= 0 && x <= 23)).toBe(true);
  });

  test("any doubles give finite ticks: a range beyond ±1e300, or a few subnormals wide (a result file can hold them)", () => {
    for (const [lo, hi] of [[-1e308, 1e308], [-5e-324, 5e-324], [0, 5e-324], [-Number.MAX_VALUE, 0]] as const) {
      const t = niceTicks(lo, hi, 6);
      expect([t.lo, t.hi, t.step, ...t.ticks].every(Number.isFinite)).toBe(true);
      expect(t.ticks.length).toBeGreaterThan(1);
      expect(t.hi).toBeGreaterThan(t.lo);
    }
  });

  test("tick labels show the digits the step needs", () => {
    expect(tickLabel(97.5, 0.5)).toBe("97.5");
    expect(tickLabel(0.25, 0.25)).toBe("0.25");
    expect(tickLabel(1.00000070000001, 2.5e-8)).toBe("1.000000700");
    expect(tickLabel(20000, 50)).toBe("20000");
    expect(tickLabel(-1e-17, 0.5)).toBe("0");
  });
});

describe("renderPlot", () => {
  const frameNums = [0, 1, 2, 3];
  test("one path per series, keys escaped, nulls marked, worst frames circled", () => {
    const svg = renderPlot({
      frameNums,
      width: 600,
      height: 200,
      label: "a<b",
      series: [
        { key: "vmaf", values: [90, 80, null, 85], color: "#000" },
        { key: 'x"><script>', values: [1, 2, 3, 4], color: "#111" },
      ],
      highlight: [1],
    });
    expect(svg.match(/<path class="series"/g)).toHaveLength(2);
    expect(svg).toContain('data-key="vmaf"');
    expect(svg).toContain('data-key="x&quot;&gt;&lt;script&gt;"');
    expect(svg).not.toContain("<script>");
    expect(svg).toContain('aria-label="a&lt;b"');
    expect(svg.match(/class="null-mark"/g)).toHaveLength(1);
    expect(svg).toContain("vmaf: null (infinite) at frame 2");
    expect(svg.match(/<circle/g)).toHaveLength(1);
    expect(svg).toContain("frame 1: vmaf 80");
  });

  test("null frames are marked once per run", () => {
    expect(nullRuns([null, null, 1, null, undefined, null, null, null])).toEqual([[0, 1], [3, 3], [5, 7]]);
    const svg = renderPlot({ frameNums: [0, 1, 2, 3, 4], width: 400, height: 150, label: "p", series: [{ key: "psnr_y", values: [null, null, null, 40, null], color: "#000" }] });
    expect(svg.match(/class="null-mark"/g)).toHaveLength(2);
    expect(svg).toContain("psnr_y: null (infinite) at frames 0 to 2");
    expect(svg).toContain("psnr_y: null (infinite) at frame 4");
  });

  test("a series with no finite value says so instead of drawing", () => {
    const svg = renderPlot({ frameNums, width: 400, height: 150, label: "p", series: [{ key: "psnr_hvs_y", values: [null, null, null, null], color: "#000" }] });
    expect(svg).toContain("no finite values");
    expect(svg).toContain('d=""');
  });

  test("a single frame still draws a point", () => {
    const svg = renderPlot({ frameNums: [7], width: 400, height: 150, label: "p", series: [{ key: "vmaf", values: [50], color: "#000" }] });
    expect(svg).toMatch(/d="M[\d.]+ [\d.]+h0"/);
  });
});

describe("bandPath", () => {
  test("one closed outline per run of finite frames: along the top, back along the bottom", () => {
    const d = bandPath([0, 10, 20, 30], [5, 6, undefined, 8], [1, 2, 3, 4]);
    // SVG y grows downwards: the top edge is the smaller of the two
    expect(d).toBe("M0.0 1.0L10.0 2.0L10.0 6.0L0.0 5.0ZM30.0 4.0L31.0 4.0L31.0 8.0L30.0 8.0Z");
  });

  test("more points than pixels: one top and one bottom point per column, the envelope kept", () => {
    const n = 50_000;
    const xs = Array.from({ length: n }, (_, i) => (i / n) * 300);
    const mid = xs.map((_, i) => 100 + Math.sin(i / 40) * 30);
    const lo = mid.map((m, i) => m + 5 + (i === 12_345 ? 50 : 0));
    const hi = mid.map((m) => m - 5);
    const d = bandPath(xs, lo, hi);
    const points = d.match(/[ML][^MLZ]*/g)!;
    expect(points.length).toBeLessThanOrEqual(2 * 301);
    const ys = points.map((p) => Number(p.slice(1).split(" ")[1]));
    expect(Math.max(...ys)).toBeCloseTo(Math.max(...lo), 1);
    expect(Math.min(...ys)).toBeCloseTo(Math.min(...hi), 1);
  });
});
