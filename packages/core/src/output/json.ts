import type { FeatureCollector } from "../extraction/feature-collector.ts";
import { pooledEntries, type PoolMode } from "../extended-pooling.ts";
import { formatFixed, formatLibvmaf, formatRoundTrip } from "./printf.ts";

export interface OutputOptions {
  /** Digits after the point, or "max" for round-trip precision. libvmaf prints 6. */
  precision: number | "max";
  /** Only every n-th frame is written and pooled (libvmaf's --subsample). */
  subsample: number;
  /** Number of frames read (pooling runs over [0, frameCount − 1]). */
  frameCount: number;
  version: string;
  fps: number;
  /** "extended" adds median, stdev, p1, p5 and p95 to every pooled metric; default libvmaf's four. */
  pool?: PoolMode;
}

/** 6 (the default) is libvmaf's own rule; "max" round-trips every double exactly. */
export function numberFormatter(precision: number | "max"): (x: number) => string {
  if (precision === "max") return formatRoundTrip;
  if (precision === 6) return formatLibvmaf;
  return (x) => formatFixed(x, precision);
}

/** A number as libvmaf's JSON writer prints it: infinities and NaN become null. */
function jsonNumber(x: number, fmt: (x: number) => string): string {
  return Number.isFinite(x) ? fmt(x) : "null";
}

/** Every frame that has at least one score, in order, honouring subsample. */
export function writtenFrames(collector: FeatureCollector, subsample: number): number[] {
  const frames: number[] = [];
  const n = collector.frameCount();
  for (let i = 0; i < n; i++) {
    if (subsample > 1 && i % subsample) continue;
    if (collector.hasFrame(i)) frames.push(i);
  }
  return frames;
}

/** libvmaf's JSON layout, byte for byte (apart from fps, which is a timing). */
export function writeJson(collector: FeatureCollector, o: OutputOptions): string {
  const fmt = numberFormatter(o.precision);
  const out: string[] = [];
  out.push("{\n", `  "version": "${o.version}",\n`);
  out.push(`  "fps": ${Number.isFinite(o.fps) ? formatFixed(o.fps, 2) : "null"},\n`);
  out.push(`  "frames": [`);
  let first = true;
  // one string a frame (a 10,000-frame run prints 100,000+ numbers)
  const keys = new Map(collector.names().map((name) => [name, `        "${name}": `]));
  for (const i of writtenFrames(collector, o.subsample)) {
    let frame = `${first ? "\n" : ",\n"}    {\n      "frameNum": ${i},\n      "metrics": {\n`;
    first = false;
    const scores = collector.frame(i);
    for (let k = 0; k < scores.length; k++) {
      const [name, v] = scores[k]!;
      // libvmaf ends a null line without a newline; kept, so outputs compare byte for byte.
      frame += `${keys.get(name)}${jsonNumber(v, fmt)}${k < scores.length - 1 ? "," : ""}${Number.isFinite(v) ? "\n" : ""}`;
    }
    out.push(`${frame}      }\n    }`);
  }
  out.push("\n  ],\n");
  out.push(`  "pooled_metrics": {`);
  collector.names().forEach((name, k) => {
    out.push(k > 0 ? ",\n" : "\n", `    "${name}": {`);
    pooledEntries(collector, name, o)?.forEach(([m, v], j) => {
      out.push(j > 0 ? ",\n" : "\n", `      "${m}": ${jsonNumber(v, fmt)}`);
    });
    out.push("\n    }");
  });
  out.push("\n  },\n");
  out.push(`  "aggregate_metrics": {`);
  const aggregates = collector.aggregateEntries();
  aggregates.forEach(([name, v], k) => {
    out.push(`\n    "${name}": ${jsonNumber(v, fmt)}${k < aggregates.length - 1 ? "," : ""}`);
  });
  out.push("\n  }\n", "}\n");
  return out.join("");
}
