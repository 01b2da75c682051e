import { afterAll, describe, expect, test } from "bun:test";
import { FeatureCollector, Y4mReader } from "@vq/core";
import { compareWithGolden, goldenOutput, goldenPairs, goldenPath, type GoldenPair, type GoldenRun, type ParityReport } from "@vq/core/golden";
import { CambiCpu } from "./cambi-cpu.ts";
import { cambiDefinition, cambiOptions } from "./definition.ts";
import { cambiOptionSets } from "./golden-option-sets.ts";

/**
 * cambi against libvmaf 3.2 on every golden pair and every run that has cambi keys:
 * `all` (cambi), `cambi_fullref` (cambi, cambi_source, cambi_full_reference),
 * `cambi_topk0.2_tvi0.012` and the four VMAF v1 runs (the models' cambi options). Each
 * per-frame and pooled value must be the identical double to out_full, and within 5e-5
 * of the stock 6-decimal output.
 */
const CAMBI_RUNS = ["all", "cambi_fullref", "cambi_topk0.2_tvi0.012", "vmaf_v1_3d0h", "vmaf_v1_5d0h", "vmaf_v1_1d5h_2160", "vmaf_v1_hfr_3d0h"];
const isCambiKey = (k: string) => k === "cambi" || k.startsWith("cambi_");

interface Check {
  run: GoldenRun;
  extractor: CambiCpu;
  collector: FeatureCollector;
}

/** Reads the pair once and feeds every run's extractor, each with its own collector. */
async function scorePair(pair: GoldenPair, checks: Check[]): Promise<number> {
  const ref = await Y4mReader.open(goldenPath(pair.reference));
  const dist = await Y4mReader.open(goldenPath(pair.distorted));
  for (const c of checks) c.extractor.init(ref.format);
  let frames = 0;
  try {
    for (;;) {
      const [r, d] = await Promise.all([ref.read(), dist.read()]);
      if (!r || !d) break;
      for (const c of checks) c.extractor.extract({ ref: r, dist: d }, frames, c.collector);
      ref.release(r);
      dist.release(d);
      frames++;
    }
  } finally {
    for (const c of checks) c.extractor.close();
    await ref.close();
    await dist.close();
  }
  return frames;
}

function describeReport(report: ParityReport): string {
  return report.keys
    .filter((k) => k.differing)
    .map((k) => `${k.key}: ${k.differing}/${k.compared} differ (max abs ${k.maxAbs}, rel ${k.maxRel})`)
    .join("; ");
}

const tally = { pairs: 0, runs: 0, series: 0, values: 0, differing: 0, maxAbs: 0, stockMaxAbs: 0 };

describe("cambi matches libvmaf bit for bit (out_full)", () => {
  for (const pair of goldenPairs()) {
    const runs = pair.runs.filter((run) => Object.keys(goldenOutput(run, true).frames[0]?.metrics ?? {}).some(isCambiKey));

    test(pair.pair, async () => {
      expect(runs.map((r) => r.run).sort()).toEqual([...CAMBI_RUNS].sort());
      const checks: Check[] = runs.map((run) => {
        const sets = cambiOptionSets(run);
        expect(sets.length, `${run.run}: cambi registered once`).toBe(1);
        return { run, extractor: new CambiCpu(cambiOptions.parseStrings(sets[0]!)), collector: new FeatureCollector() };
      });
      const frames = await scorePair(pair, checks);
      expect(frames).toBe(pair.frame_count);
      tally.pairs++;
      for (const { run, extractor, collector } of checks) {
        tally.runs++;
        const golden = goldenOutput(run, true);
        const names = cambiDefinition.providedFeatures(extractor.options);
        expect(names.sort(), `${run.run}: names`).toEqual(Object.keys(golden.frames[0]!.metrics).filter(isCambiKey).sort());
        const report = compareWithGolden(collector, golden, (k) => names.includes(k), frames);
        expect(report.missing, `${run.run}: missing`).toEqual([]);
        // each name: every frame, then min, max, mean and harmonic mean
        for (const name of names) expect(report.keys.find((k) => k.key === name)?.compared, `${run.run}: ${name}`).toBe(frames);
        for (const k of report.keys) {
          tally.series++;
          tally.values += k.compared;
          tally.differing += k.differing;
          tally.maxAbs = Math.max(tally.maxAbs, k.maxAbs);
        }
        expect(report.keys.filter((k) => k.differing), `${run.run}: ${describeReport(report)}`).toEqual([]);
        const stock = compareWithGolden(collector, goldenOutput(run, false), (k) => names.includes(k), frames);
        for (const k of stock.keys) {
          tally.stockMaxAbs = Math.max(tally.stockMaxAbs, k.maxAbs);
          expect(k.maxAbs, `${run.run}: ${k.key} against out/`).toBeLessThanOrEqual(5e-5);
        }
      }
    });
  }
});

afterAll(() => {
  console.log(
    `cambi parity: ${tally.pairs} pairs, ${tally.runs} runs, ${tally.series} series (per frame + pooled), ${tally.values} values compared with out_full, ` +
      `${tally.differing} differ (max |Δ| ${tally.maxAbs}); max |Δ| against out/ ${tally.stockMaxAbs.toExponential(2)}`,
  );
});
