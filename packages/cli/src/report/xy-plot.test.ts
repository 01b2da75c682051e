import { describe, expect, test } from "bun:test";
import { goldenOutput, goldenPairs, goldenRun } from "@vq/core/golden";
import { cdfPoints, renderXyPlot } from "./xy-plot.ts";

// Frame scores libvmaf wrote for the golden pairs.
const scores = goldenPairs().map((p) => goldenOutput(goldenRun(p, "all"), false).frames.map((f) => f.metrics.vmaf as number));

describe("cdfPoints: the share of frames at or below each score", () => {
  test.each(scores.map((s, i) => [i, s] as const))("pair %d: starts at the lowest score with 0, each point's share counts every value ≤ it, ends at 1", (_, values) => {
    const points = cdfPoints(values);
    const sorted = [...values].sort((a, b) => a - b);
    expect(points[0]).toEqual([sorted[0]!, 0]);
    for (const [x, share] of points.slice(1)) expect(share).toBe(values.filter((v) => v <= x).length / values.length);
    expect(points[points.length - 1]).toEqual([sorted[sorted.length - 1]!, 1]);
  });

  test("many values: at most maxPoints + 1 points, the lowest and the highest kept", () => {
    const many = scores.flat().concat(scores.flat(), scores.flat());
    const points = cdfPoints(many, 50);
    expect(points.length).toBeLessThanOrEqual(51);
    expect(points[0]![0]).toBe(Math.min(...many));
    expect(points[points.length - 1]).toEqual([Math.max(...many), 1]);
  });
});

describe("renderXyPlot", () => {
  test("a staircase draws a horizontal then a vertical step per point; markers carry their labels", () => {
    const svg = renderXyPlot({
      series: [
        { key: "a", points: [[1, 0], [2, 0.5], [3, 1]], color: "#000", step: true },
        { key: "b", points: [[2, 0.5]], color: "#111", markers: ["b: tooltip"], labels: ["b"] },
      ],
      width: 400,
      height: 200,
      label: "test",
      xTitle: "x",
      yTitle: "share",
      yRange: [0, 1],
    });
    const d = svg.match(/data-key="a" stroke="#000" d="([^"]+)"/)![1]!;
    expect(d.match(/[ML]/g)!.length).toBe(5);
    expect(svg).toContain("<title>b: tooltip</title>");
    expect(svg).toContain('class="point-label"');
    expect(svg).toContain(">b</text>");
  });
});
