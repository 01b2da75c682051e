import { formatFixed, formatG, type PooledScore } from "@vq/core";
import { parseModelArgument } from "@vq/score";

/** libvmaf's default model, scored when a run names none. */
const DEFAULT_MODEL = "version=vmaf_v0.6.1";

/**
 * libvmaf's closing lines on a terminal: per model, `LABEL: MEAN` with the model's version
 * (or path) as label and the pooled mean at the run's precision (`%.Nf`, `%.17g` for max).
 */
export function modelSummaryLines(modelArgs: readonly string[], pooled: Readonly<Record<string, PooledScore>>, precision: number | "max"): string[] {
  const format = precision === "max" ? (x: number) => formatG(x, 17) : (x: number) => formatFixed(x, precision);
  return (modelArgs.length ? modelArgs : [DEFAULT_MODEL]).flatMap((arg) => {
    const m = parseModelArgument(arg);
    const score = pooled[m.name ?? "vmaf"];
    return score ? [`${m.version ?? m.path}: ${format(score.mean)}`] : [];
  });
}
