import { describe, expect, test } from "bun:test";
import { thresholdFailureLine, thresholdFailures } from "./threshold-check.ts";
import { parseThreshold } from "./threshold-expression.ts";

const pooled = {
  vmaf: { min: 60, max: 80, mean: 71.3290664, harmonic_mean: 70, median: 72, stdev: 4, p1: 61, p5: 63, p95: 79 },
  psnr_y: { min: 30, max: 40, mean: 35, harmonic_mean: 34 },
};

describe("thresholdFailures", () => {
  test("each operator at, above and below its value", () => {
    const failing = (expr: string) => thresholdFailures([parseThreshold(expr)], pooled).length === 1;
    expect([">=30", ">30", "<=30", "<30"].map((op) => failing(`psnr_y.min${op}`))).toEqual([false, true, false, true]);
    expect([">=29", ">29", "<=29", "<29"].map((op) => failing(`psnr_y.min${op}`))).toEqual([false, false, true, true]);
    expect([">=31", ">31", "<=31", "<31"].map((op) => failing(`psnr_y.min${op}`))).toEqual([true, true, false, false]);
  });

  test("only the failed thresholds, with the measured value; a statistic not pooled fails", () => {
    const thresholds = ["vmaf.mean>=93", "vmaf.p5>=60", "psnr_y.max<40", "psnr_y.p5>=0"].map(parseThreshold);
    const failures = thresholdFailures(thresholds, pooled);
    expect(failures.map((f) => [f.threshold.expression, f.measured])).toEqual([
      ["vmaf.mean>=93", 71.3290664],
      ["psnr_y.max<40", 40],
      ["psnr_y.p5>=0", undefined],
    ]);
  });

  test("NaN fails", () => {
    expect(thresholdFailures([parseThreshold("vmaf.mean<100")], { vmaf: { ...pooled.vmaf, mean: NaN } })).toHaveLength(1);
  });
});

describe("thresholdFailureLine", () => {
  const [failure] = thresholdFailures([parseThreshold("vmaf.mean >= 93")], pooled);

  test("the expression and the measured value at the run's precision, the distorted input when given", () => {
    expect(thresholdFailureLine(failure!, 6)).toBe("threshold failed: vmaf.mean>=93 (measured 71.329066)");
    expect(thresholdFailureLine(failure!, 2, "b.mkv")).toBe("b.mkv: threshold failed: vmaf.mean>=93 (measured 71.33)");
    expect(thresholdFailureLine(failure!, "max")).toBe("threshold failed: vmaf.mean>=93 (measured 71.3290664)");
  });

  test("exact when the rounded value would seem to pass", () => {
    const [f] = thresholdFailures([parseThreshold("vmaf.mean>=93")], { vmaf: { ...pooled.vmaf, mean: 92.9999997 } });
    expect(thresholdFailureLine(f!, 6)).toBe("threshold failed: vmaf.mean>=93 (measured 92.9999997)");
  });

  test("a statistic not pooled", () => {
    const [f] = thresholdFailures([parseThreshold("psnr_y.median>1")], pooled);
    expect(thresholdFailureLine(f!, 6)).toBe("threshold failed: psnr_y.median>1 (no pooled value)");
  });
});
