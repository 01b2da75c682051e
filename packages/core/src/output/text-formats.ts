import type { FeatureCollector } from "../extraction/feature-collector.ts";
import { POOL_METHODS, poolFeature } from "../pooling.ts";
import { formatFixed } from "./printf.ts";
import { numberFormatter, writtenFrames, type OutputOptions } from "./json.ts";

/** libvmaf's XML layout (its default output format). */
export function writeXml(collector: FeatureCollector, o: OutputOptions & { width: number; height: number }): string {
  const fmt = numberFormatter(o.precision);
  const out: string[] = [];
  out.push(`<VMAF version="${o.version}">\n`);
  out.push(`  <params qualityWidth="${o.width}" qualityHeight="${o.height}" />\n`);
  out.push(`  <fyi fps="${formatFixed(o.fps, 2)}" />\n`);
  out.push("  <frames>\n");
  for (const i of writtenFrames(collector, o.subsample)) {
    out.push(`    <frame frameNum="${i}" `);
    for (const [name, v] of collector.frame(i)) out.push(`${name}="${fmt(v)}" `);
    out.push("/>\n");
  }
  out.push("  </frames>\n", "  <pooled_metrics>\n");
  for (const name of collector.names()) {
    out.push(`    <metric name="${name}" `);
    const pooled = poolFeature(collector, name, o.frameCount, o.subsample);
    if (pooled) for (const m of POOL_METHODS) out.push(`${m}="${fmt(pooled[m])}" `);
    out.push("/>\n");
  }
  out.push("  </pooled_metrics>\n", "  <aggregate_metrics ");
  for (const [name, v] of collector.aggregateEntries()) out.push(`${name}="${fmt(v)}" `);
  out.push("/>\n", "</VMAF>\n");
  return out.join("");
}

/** libvmaf's CSV layout: a header of feature names, then one row per frame. */
export function writeCsv(collector: FeatureCollector, o: OutputOptions): string {
  const fmt = numberFormatter(o.precision);
  const out: string[] = ["Frame,", ...collector.names().map((n) => `${n},`), "\n"];
  for (const i of writtenFrames(collector, o.subsample)) {
    out.push(`${i},`);
    for (const [, v] of collector.frame(i)) out.push(`${fmt(v)},`);
    out.push("\n");
  }
  return out.join("");
}

/** libvmaf's subtitle (MicroDVD) layout: one line per frame. */
export function writeSub(collector: FeatureCollector, o: OutputOptions): string {
  const fmt = numberFormatter(o.precision);
  const out: string[] = [];
  for (const i of writtenFrames(collector, o.subsample)) {
    out.push(`{${i}}{${i + 1}}frame: ${i}|`);
    for (const [name, v] of collector.frame(i)) out.push(`${name}: ${fmt(v)}|`);
    out.push("\n");
  }
  return out.join("");
}
