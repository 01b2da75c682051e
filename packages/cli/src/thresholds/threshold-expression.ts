import { z } from "zod";
import { EXTENDED_POOL_METHODS, POOL_METHODS, VqError } from "@vq/core";

/** The pooled statistics a threshold can test: libvmaf's four and the extended ones. */
export const thresholdStatistic = z.enum([...POOL_METHODS, ...EXTENDED_POOL_METHODS]);
export type ThresholdStatistic = z.infer<typeof thresholdStatistic>;

export const THRESHOLD_OPERATORS = [">=", ">", "<=", "<"] as const;
export type ThresholdOperator = (typeof THRESHOLD_OPERATORS)[number];

/** `--threshold METRIC.STAT OP VALUE`, parsed. */
export interface Threshold {
  /** As given, without spaces: `vmaf.mean>=93`. */
  expression: string;
  /** A score key as written in the output (`vmaf`, `psnr_y`, a model's `name=`). */
  metric: string;
  statistic: ThresholdStatistic;
  operator: ThresholdOperator;
  value: number;
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
// The first comparison-like token; `=`, `==`, `!=`, `=>` are caught to be named, not split.
const COMPARISON = /^(.*?)(>=|<=|==|!=|=>|=<|>|<|=)(.*)$/s;

/**
 * Parses one `--threshold` expression. The metric is everything before the last dot of the
 * left side (keys such as `cambi_topk_0.2_tvit_0.012` contain dots); errors name the
 * expression and what is wrong with it.
 */
export function parseThreshold(text: string): Threshold {
  const invalid = (problem: string) => new VqError(`invalid --threshold "${text}": ${problem}`);
  const m = COMPARISON.exec(text.trim());
  if (!m) throw invalid(`expected METRIC.STAT OP VALUE with OP one of ${THRESHOLD_OPERATORS.join(", ")} (e.g. vmaf.mean>=93)`);
  const [, left, op, right] = m as unknown as [string, string, string, string];
  if (!isOperator(op)) throw invalid(`unknown operator "${op}" (${THRESHOLD_OPERATORS.join(", ")})`);
  const lhs = left.trim();
  const dot = lhs.lastIndexOf(".");
  if (dot < 0) throw invalid(`"${lhs}" names no statistic: write METRIC.STAT, STAT one of ${thresholdStatistic.options.join(", ")}`);
  const metric = lhs.slice(0, dot);
  if (!metric) throw invalid(`no metric before "${lhs}"`);
  const statistic = thresholdStatistic.safeParse(lhs.slice(dot + 1));
  if (!statistic.success) throw invalid(`unknown statistic "${lhs.slice(dot + 1)}" (${thresholdStatistic.options.join(", ")})`);
  const rhs = right.trim();
  if (!NUMBER.test(rhs)) throw invalid(rhs ? `"${rhs}" is not a number` : "no value after the operator");
  return { expression: `${metric}.${statistic.data}${op}${rhs}`, metric, statistic: statistic.data, operator: op, value: Number(rhs) };
}

function isOperator(op: string): op is ThresholdOperator {
  return (THRESHOLD_OPERATORS as readonly string[]).includes(op);
}

/** Keys named in the error, at most: the message is one line (VqError cuts it at 300 characters). */
const LISTED_KEYS = 8;

/** Refuses, before scoring, a threshold on a key the run does not compute. */
export function checkThresholdMetrics(thresholds: readonly Threshold[], computed: readonly string[]): void {
  const keys = new Set(computed);
  for (const t of thresholds) {
    if (!keys.has(t.metric)) throw new VqError(`--threshold "${t.expression}": this run computes no "${t.metric}" (it computes ${listed(computed)})`);
  }
}

/**
 * The run's keys as the error lists them: those a gate names (model scores, psnr_y, float_ssim)
 * before the models' own integer_ and VMAF_ features, at most LISTED_KEYS of them.
 */
function listed(computed: readonly string[]): string {
  if (!computed.length) return "nothing";
  const internal = (k: string) => /^(integer_|VMAF_)/.test(k);
  const ordered = [...computed.filter((k) => !internal(k)), ...computed.filter(internal)];
  const more = ordered.length - LISTED_KEYS;
  return ordered.slice(0, LISTED_KEYS).join(", ") + (more > 0 ? ` and ${more} more` : "");
}
