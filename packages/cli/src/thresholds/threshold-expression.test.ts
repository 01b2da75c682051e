import { describe, expect, test } from "bun:test";
import { isVqError } from "@vq/core";
import { checkThresholdMetrics, parseThreshold } from "./threshold-expression.ts";

function errorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(isVqError(e)).toBe(true);
    return (e as Error).message;
  }
  throw new Error("expected a VqError");
}

describe("parseThreshold: METRIC.STAT OP VALUE", () => {
  test("every operator and statistic; spaces allowed; keys with dots", () => {
    expect(parseThreshold("vmaf.mean>=93")).toEqual({ expression: "vmaf.mean>=93", metric: "vmaf", statistic: "mean", operator: ">=", value: 93 });
    expect(parseThreshold(" psnr_y.min > 30.5 ")).toEqual({ expression: "psnr_y.min>30.5", metric: "psnr_y", statistic: "min", operator: ">", value: 30.5 });
    expect(parseThreshold("vmaf.stdev<=2e1").value).toBe(20);
    expect(parseThreshold("float_ssim.p1<-.5").operator).toBe("<");
    expect(parseThreshold("cambi_topk_0.2_tvit_0.012.p95<5")).toMatchObject({ metric: "cambi_topk_0.2_tvit_0.012", statistic: "p95" });
    for (const stat of ["min", "max", "mean", "harmonic_mean", "median", "stdev", "p1", "p5", "p95"]) expect(parseThreshold(`vmaf.${stat}>=1`).statistic).toBe(stat as never);
  });

  for (const [expr, says] of [
    ["vmaf.mean93", "expected METRIC.STAT OP VALUE"],
    ["vmaf.mean=93", 'unknown operator "="'],
    ["vmaf.mean==93", 'unknown operator "=="'],
    ["vmaf.mean=>93", 'unknown operator "=>"'],
    ["vmaf>=93", '"vmaf" names no statistic'],
    [".mean>=93", 'no metric before ".mean"'],
    ["vmaf.avg>=93", 'unknown statistic "avg" (min, max, mean, harmonic_mean, median, stdev, p1, p5, p95)'],
    ["vmaf.mean>=", "no value after the operator"],
    ["vmaf.mean>=ninety", '"ninety" is not a number'],
    ["vmaf.mean>=90<95", '"90<95" is not a number'],
  ] as const) {
    test(`${expr}: ${says}`, () => {
      const message = errorOf(() => parseThreshold(expr));
      expect(message).toStartWith(`invalid --threshold "${expr}": `);
      expect(message).toContain(says);
    });
  }
});

describe("checkThresholdMetrics", () => {
  test("a metric the run computes passes; another is refused, naming it and what the run computes", () => {
    const computed = ["psnr_y", "vmaf"];
    checkThresholdMetrics([parseThreshold("vmaf.mean>=93"), parseThreshold("psnr_y.min>30")], computed);
    const message = errorOf(() => checkThresholdMetrics([parseThreshold("vmaf.mean>=93"), parseThreshold("psnr_u.min>30")], computed));
    expect(message).toBe('--threshold "psnr_u.min>30": this run computes no "psnr_u" (it computes psnr_y, vmaf)');
  });

  test("a long list names the keys a gate would use first, and counts the rest", () => {
    const computed = ["integer_adm2", "integer_adm_scale0", "integer_adm_scale1", "integer_adm_scale2", "integer_adm_scale3", "VMAF_integer_feature_motion_sad_score", "integer_motion2", "integer_vif_scale0", "psnr_y", "vmaf"];
    const message = errorOf(() => checkThresholdMetrics([parseThreshold("ssim.mean>0.9")], computed));
    expect(message).toBe('--threshold "ssim.mean>0.9": this run computes no "ssim" (it computes psnr_y, vmaf, integer_adm2, integer_adm_scale0, integer_adm_scale1, integer_adm_scale2, integer_adm_scale3, VMAF_integer_feature_motion_sad_score and 2 more)');
  });
});
