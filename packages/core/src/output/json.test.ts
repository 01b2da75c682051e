import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { FeatureCollector } from "../extraction/feature-collector.ts";
import { goldenDir, type LibvmafJson } from "../golden.ts";
import { writeJson } from "./json.ts";

/**
 * The writer and the pooling checked against libvmaf itself: per-frame values from
 * out_full/ (exact doubles) go through vq's pooling and JSON writer at 6 decimals,
 * and must reproduce out/ (libvmaf's stock output) byte for byte, fps and version aside.
 */
const dir = goldenDir();
const files = readdirSync(join(dir, "out_full")).filter((f) => f.endsWith(".json"));

function collectorFrom(json: LibvmafJson): FeatureCollector {
  const c = new FeatureCollector();
  for (const f of json.frames) for (const [k, v] of Object.entries(f.metrics)) c.append(k, f.frameNum, v === null ? Infinity : v);
  return c;
}

const withoutTimings = (text: string) => text.replace(/^ {2}"(version|fps)": .*\n/gm, "");

describe("writeJson reproduces libvmaf's JSON from its own per-frame scores", () => {
  test(`golden has outputs (${files.length})`, () => expect(files.length).toBeGreaterThan(100));
  for (const file of files) {
    test(file, () => {
      const full = JSON.parse(readFileSync(join(dir, "out_full", file), "utf8")) as LibvmafJson;
      const stock = readFileSync(join(dir, "out", file), "utf8");
      const c = collectorFrom(full);
      for (const [k, v] of Object.entries(full.aggregate_metrics)) c.setAggregate(k, v ?? Infinity);
      const ours = writeJson(c, { precision: 6, subsample: 1, frameCount: full.frames.length, version: "x", fps: 0 });
      expect(withoutTimings(ours)).toBe(withoutTimings(stock));
    });
  }
});
