import type { FeatureCollector } from "../extraction/feature-collector.ts";
import { pooledEntries, EXTENDED_POOL_METHODS } from "../extended-pooling.ts";
import { POOL_METHODS } from "../pooling.ts";
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
    for (const [m, v] of pooledEntries(collector, name, o) ?? []) out.push(`${m}="${fmt(v)}" `);
    out.push("/>\n");
  }
  out.push("  </pooled_metrics>\n", "  <aggregate_metrics ");
  for (const [name, v] of collector.aggregateEntries()) out.push(`${name}="${fmt(v)}" `);
  out.push("/>\n", "</VMAF>\n");
  return out.join("");
}

/**
 * libvmaf's CSV layout: a header of feature names, then one row per frame. libvmaf's CSV has
 * no pooled scores; `pool: "extended"` appends one row per statistic, its name in the Frame
 * column (adr/0027-extended-pooling-and-thresholds.md).
 */
export function writeCsv(collector: FeatureCollector, o: OutputOptions): string {
  const fmt = numberFormatter(o.precision);
  const names = collector.names();
  const out: string[] = ["Frame,", ...names.map((n) => `${n},`), "\n"];
  for (const i of writtenFrames(collector, o.subsample)) {
    out.push(`${i},`);
    for (const [, v] of collector.frame(i)) out.push(`${fmt(v)},`);
    out.push("\n");
  }
  if (o.pool === "extended") {
    const pooled = names.map((n) => new Map(pooledEntries(collector, n, o)));
    for (const m of [...POOL_METHODS, ...EXTENDED_POOL_METHODS]) {
      out.push(`${m},`);
      // A feature libvmaf leaves unpooled (a frame without its score) gets an empty cell.
      for (const p of pooled) out.push(p.has(m) ? `${fmt(p.get(m)!)},` : ",");
      out.push("\n");
    }
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
